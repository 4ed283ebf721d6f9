// The replay viewer: walks a match step by step from any perspective; in live mode follows a running match.
(function () {
  const config = JSON.parse(document.getElementById("viewer-config").textContent);
  const $ = (id) => document.getElementById(id);
  const slider = $("slider"), perspective = $("perspective");
  let summary = null, current = 0, timer = null, pending = 0;

  function seatParam() { return perspective.value === "" ? "" : `&seat=${perspective.value}`; }

  function fillPerspectives() {
    const keep = perspective.value;
    perspective.innerHTML = '<option value="">spectator</option>';
    if (!config.live || summary.finished) {
      for (let seat = 0; seat < summary.players; seat++) {
        const name = summary.seats[seat] ? ` (${summary.seats[seat]})` : "";
        perspective.insertAdjacentHTML("beforeend", `<option value="${seat}">seat ${seat}${name}</option>`);
      }
    }
    perspective.value = [...perspective.options].some((o) => o.value === keep) ? keep : "";
  }

  function text(tag, content, cls) {
    const node = document.createElement(tag);
    node.textContent = content;
    if (cls) node.className = cls;
    return node;
  }

  function showStep(data) {
    $("picture").innerHTML = data.svg;
    $("step-label").textContent = `step ${data.step} of ${summary.steps.length - 1} · ${data.label}`;
    const events = $("events");
    events.replaceChildren(...(data.events.length ? data.events.map((e) => text("li", e)) : [text("li", "(no events you may see)", "muted")]));
    const decisions = $("decisions");
    decisions.replaceChildren();
    for (const d of data.decisions) {
      const time = d.seconds == null ? "" : ` · thought ${(d.seconds * 1000).toFixed(d.seconds < 1 ? 1 : 0)} ms`;
      decisions.append(text("div", `seat ${d.seat} · ${d.decision.replaceAll("_", " ")} · ${d.how}${time}`));
      if (d.options) {
        const list = document.createElement("ul");
        for (const o of d.options) list.append(text("li", `${o.label} [${o.id}]`, o.id === d.chosen ? "chosen" : ""));
        decisions.append(list);
      }
    }
    if (!data.decisions.length) decisions.append(text("div", data.kind === "chance" ? "a chance step (the referee drew)" : "-", "muted"));
    const faults = $("faults");
    faults.replaceChildren(...data.faults.map((f) => text("li", `seat ${f.seat}: ${f.kind} ${f.detail || ""}`, "fault")));
    if (data.over && summary.result) {
      $("result").textContent = "result: " + summary.result.ranks.map((r, s) => `seat ${s} rank ${r} (${summary.result.scores[s]})`).join(", ");
    }
  }

  async function go(index) {
    if (!summary) return;
    index = Math.max(0, Math.min(summary.steps.length - 1, index));
    current = index;
    slider.value = String(index);
    const ticket = ++pending;
    const response = await fetch(`step.json?n=${index}${seatParam()}`);
    const data = await response.json();
    if (ticket !== pending) return;
    if (!response.ok) { $("step-label").textContent = data.error || "error"; return; }
    showStep(data);
    document.body.dataset.step = String(index);
  }

  function nextDecision(direction) {
    let index = current + direction;
    while (index > 0 && index < summary.steps.length - 1 && summary.steps[index].kind !== "decision") index += direction;
    go(index);
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    $("play").textContent = "pause";
    timer = setInterval(() => {
      if (current >= summary.steps.length - 1) { play(); return; }
      nextDecision(1);
    }, Number($("speed").value));
  }

  async function load() {
    const response = await fetch("timeline.json");
    summary = await response.json();
    $("title").textContent = `${summary.name} · ${summary.players} players · seed ${summary.seed ?? "-"}`;
    slider.max = String(summary.steps.length - 1);
    fillPerspectives();
    await go(config.live ? summary.steps.length - 1 : Number(config.start || 0));
    document.body.dataset.ready = "1";
  }

  function follow() {
    const source = new EventSource("events");
    $("status").textContent = "live";
    $("status").className = "live";
    source.addEventListener("step", (message) => {
      const data = JSON.parse(message.data);
      summary.steps.push(...data.steps);
      slider.max = String(summary.steps.length - 1);
      const atEnd = current >= summary.steps.length - 1 - data.steps.length;
      if (atEnd) { current = data.step.step; slider.value = String(current); showStep(data.step); }
      document.body.dataset.liveSteps = String(summary.steps.length);
    });
    source.addEventListener("over", (message) => {
      summary.result = JSON.parse(message.data).result;
      summary.finished = true;
      $("status").textContent = "finished";
      $("status").className = "";
      fillPerspectives();
      source.close();
      go(summary.steps.length - 1);
    });
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  perspective.addEventListener("change", () => go(current));
  $("first").addEventListener("click", () => go(0));
  $("last").addEventListener("click", () => go(summary.steps.length - 1));
  $("prev").addEventListener("click", () => nextDecision(-1));
  $("next").addEventListener("click", () => nextDecision(1));
  $("back").addEventListener("click", () => go(current - 1));
  $("forward").addEventListener("click", () => go(current + 1));
  $("play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") nextDecision(1);
    if (e.key === "ArrowLeft") nextDecision(-1);
  });
  window.addEventListener("error", (e) => { document.body.dataset.scriptError = String(e.message); });
  load().then(() => { if (config.live && !summary.finished) follow(); });
})();
