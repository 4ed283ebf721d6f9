// The replay viewer: walks a match step by step from any perspective; in live mode follows a running match.
// Every text that comes from data goes in through textContent (never as HTML); the picture is parsed as SVG
// and stripped of scripts and event attributes before it is shown.
(function () {
  const config = JSON.parse(document.getElementById("viewer-config").textContent);
  const $ = (id) => document.getElementById(id);
  const slider = $("slider"), perspective = $("perspective");
  const params = new URLSearchParams(location.search);
  let summary = null, current = 0, timer = null, pending = 0, source = null;

  function last() { return summary.steps.length - 1; }
  function seatParam() { return perspective.value === "" ? "" : `&seat=${perspective.value}`; }
  function seatName(seat) { return summary.seats[seat] ? `seat ${seat} (${summary.seats[seat]})` : `seat ${seat}`; }
  function finished() { return !config.live || summary.finished; }

  function text(tag, content, cls) {
    const node = document.createElement(tag);
    node.textContent = content;
    if (cls) node.className = cls;
    return node;
  }

  function option(value, label) {
    const node = document.createElement("option");
    node.value = value;
    node.textContent = label;
    return node;
  }

  function fillPerspectives() {
    const keep = perspective.value;
    perspective.replaceChildren(option("", "spectator"));
    if (finished()) {
      for (let seat = 0; seat < summary.players; seat++) perspective.append(option(String(seat), seatName(seat)));
      perspective.append(option("all", "every seat (all hidden information)"));
    }
    perspective.value = [...perspective.options].some((o) => o.value === keep) ? keep : "";
    const moveSeat = $("move-seat"), keepSeat = moveSeat.value;
    moveSeat.replaceChildren(option("", "every seat"));
    for (let seat = 0; seat < summary.players; seat++) moveSeat.append(option(String(seat), seatName(seat)));
    moveSeat.value = keepSeat;
    $("my-next").disabled = !/^[0-9]+$/.test(perspective.value);
  }

  function showPicture(svgText) {
    const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = parsed.documentElement;
    if (svg.nodeName !== "svg") { $("picture").replaceChildren(text("p", "the picture could not be drawn", "fault")); return; }
    for (const bad of svg.querySelectorAll("script, foreignObject")) bad.remove();
    for (const node of [svg, ...svg.querySelectorAll("*")]) {
      for (const attribute of [...node.attributes]) if (/^on/i.test(attribute.name)) node.removeAttribute(attribute.name);
    }
    const picture = $("picture");
    picture.replaceChildren(document.importNode(svg, true));
    applyZoom();
  }

  function applyZoom() {
    const svg = $("picture").querySelector("svg");
    if (!svg) return;
    const zoom = $("zoom").value;
    $("picture").classList.toggle("zoomed", zoom !== "fit");
    svg.style.width = zoom === "fit" ? "" : `${Number(svg.getAttribute("width")) * Number(zoom)}px`;
  }

  function markChosen(decisions) {
    // The option chosen at this position, found in the picture: in its seat's area, or outside every seat's area.
    for (const d of decisions) {
      if (!d.chosen) continue;
      for (const node of $("picture").querySelectorAll("[data-keys]")) {
        if (!node.getAttribute("data-keys").split(" ").includes(d.chosen)) continue;
        const area = node.closest("[data-seat-area]");
        if (area && area.getAttribute("data-seat-area") !== String(d.seat)) continue;
        node.classList.add("chosen-mark");
      }
    }
  }

  function resultText(result) {
    return "result: " + result.ranks.map((r, s) => `${seatName(s)} rank ${r}, score ${result.scores[s]}`).join("; ");
  }

  function showStep(data) {
    showPicture(data.svg);
    const nextWords = { over: "the game is over", chance: "next: a chance step (the referee draws)", decision: "" }[data.next] ?? "";
    $("step-label").textContent = `step ${data.step} of ${last()} · ${data.label}` + (nextWords ? ` · ${nextWords}` : "");
    const events = $("events");
    events.replaceChildren(...(data.events.length ? data.events.map((e) => text("li", e)) : [text("li", "(no events you may see)", "muted")]));
    const decisions = $("decisions");
    decisions.replaceChildren();
    for (const d of data.decisions) {
      const how = d.how ? ` · ${d.how}` : "";
      const time = d.seconds == null ? "" : ` · thought ${(d.seconds * 1000).toFixed(d.seconds < 1 ? 1 : 0)} ms`;
      const chosen = d.chosen ? ` · chose ${d.chosen_label || d.chosen}` : (d.options ? " · to choose" : " · decides");
      decisions.append(text("div", `${seatName(d.seat)} · ${d.decision.replaceAll("_", " ")}${chosen}${how}${time}`, "decision-line"));
      if (d.log) { decisions.append(text("div", "what its bot wrote while deciding:", "muted")); decisions.append(text("pre", d.log, "log")); }
      if (d.options) {
        const list = document.createElement("ul");
        list.className = "offered";
        for (const o of d.options) list.append(text("li", `${o.label} [${o.id}]`, o.id === d.chosen ? "chosen" : ""));
        decisions.append(list);
      }
    }
    if (!data.decisions.length) decisions.append(text("div", nextWords || "-", "muted"));
    $("faults").replaceChildren(...data.faults.map((f) => text("li", `seat ${f.seat}: ${f.kind} ${f.detail || ""}`, "fault")));
    const result = data.result || (data.over ? summary.result : null);
    $("result").textContent = result ? resultText(result) : "";
    markChosen(data.decisions);
    markMove();
  }

  function setUrl() {
    const query = new URLSearchParams(location.search);
    query.set("step", String(current));
    if (perspective.value === "") query.delete("seat"); else query.set("seat", perspective.value);
    history.replaceState(null, "", `${location.pathname}?${query}`);
  }

  async function go(index) {
    if (!summary) return;
    index = Math.max(0, Math.min(last(), index));
    current = index;
    slider.value = String(index);
    const ticket = ++pending;
    const response = await fetch(`step.json?n=${index}${seatParam()}`);
    const data = await response.json();
    if (ticket !== pending) return;
    if (!response.ok) { $("step-label").textContent = data.error || "error"; return; }
    showStep(data);
    setUrl();
    document.body.dataset.step = String(index);
  }

  // A position asks for a decision when the step after it is one (the picture shows the state after its step).
  function asksDecision(index, seat) {
    const next = summary.steps[index + 1];
    return next !== undefined && next.kind === "decision" && (seat === undefined || next.seats.includes(seat));
  }

  function find(direction, test) {
    for (let index = current + direction; index >= 0 && index <= last(); index += direction) if (test(index)) return index;
    return direction > 0 ? last() : 0;
  }

  function nextDecision(direction) { go(find(direction, (i) => asksDecision(i))); }
  function nextFault() {
    const seat = /^[0-9]+$/.test(perspective.value) ? Number(perspective.value) : null;
    const index = find(1, (i) => summary.steps[i].marks.some((m) => seat === null || m.seat === seat));
    go(index);
  }
  function myNext() {
    if (!/^[0-9]+$/.test(perspective.value)) return;
    go(find(1, (i) => asksDecision(i, Number(perspective.value))));
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    $("play").textContent = "pause";
    timer = setInterval(() => {
      if (current >= last()) { play(); return; }
      nextDecision(1);
    }, Number($("speed").value));
  }

  function drawMarks() {
    const marks = $("marks");
    const span = Math.max(1, last());
    const nodes = [];
    summary.steps.forEach((step, index) => {
      if (!step.marks || !step.marks.length) return;
      const mark = document.createElement("span");
      mark.style.left = `${(100 * index) / span}%`;
      mark.className = step.marks.every((m) => m.kind === "fallback") ? "fallback" : "fault";
      mark.title = `step ${index}: ` + step.marks.map((m) => `seat ${m.seat} ${m.kind}`).join(", ");
      mark.dataset.step = String(index);
      mark.addEventListener("click", () => go(index));
      nodes.push(mark);
    });
    marks.replaceChildren(...nodes);
  }

  function moveText(step, index) {
    const parts = [];
    if (step.kind === "decision") {
      for (const seat of step.seats) {
        const name = step.decisions && step.decisions[seat] ? step.decisions[seat].replaceAll("_", " ") : "decision";
        const choice = step.choices && step.choices[seat] ? `: ${step.choices[seat]}` : "";
        parts.push(`seat ${seat} ${name}${choice}`);
      }
    } else if (step.kind === "chance") {
      parts.push("chance" + (step.outcome ? `: ${step.outcome}` : ""));
    } else {
      parts.push(step.kind);
    }
    if (step.marks && step.marks.length) parts.push(step.marks.map((m) => `seat ${m.seat} ${m.kind}`).join(", "));
    if (step.events && step.events.length) parts.push(step.events.map((e) => e.replaceAll("_", " ")).join(", "));
    return parts.join(" · ");
  }

  function fillMoves() {
    const seat = $("move-seat").value, kind = $("move-kind").value, search = $("move-search").value.trim().toLowerCase();
    const rows = [];
    summary.steps.forEach((step, index) => {
      if (seat !== "" && !step.seats.includes(Number(seat)) && !(step.marks || []).some((m) => String(m.seat) === seat)) return;
      if (kind === "decision" || kind === "chance") { if (step.kind !== kind) return; }
      else if (kind === "fault") { if (!step.marks || !step.marks.length) return; }
      else if (kind !== "" && !(step.events || []).includes(kind)) return;
      const line = moveText(step, index);
      if (search && !`${index} ${line}`.toLowerCase().includes(search)) return;
      const row = text("li", line, step.marks && step.marks.length ? "has-fault" : "");
      row.value = index;
      row.dataset.step = String(index);
      row.addEventListener("click", () => go(index));
      rows.push(row);
    });
    $("moves").replaceChildren(...rows);
    markMove();
  }

  function fillEventKinds() {
    const select = $("move-kind"), keep = select.value;
    const kinds = new Set();
    for (const step of summary.steps) for (const kind of step.events || []) kinds.add(kind);
    for (const node of [...select.options]) if (node.dataset.event) node.remove();
    for (const kind of [...kinds].sort()) {
      const node = option(kind, `event: ${kind.replaceAll("_", " ")}`);
      node.dataset.event = "1";
      select.append(node);
    }
    select.value = keep;
  }

  function markMove() {
    const list = $("moves");
    for (const row of list.querySelectorAll("li.current")) row.classList.remove("current");
    const row = list.querySelector(`li[data-step="${current}"]`);
    if (!row) return;
    row.classList.add("current");
    if (row.offsetTop < list.scrollTop || row.offsetTop > list.scrollTop + list.clientHeight - row.offsetHeight) {
      list.scrollTop = row.offsetTop - list.clientHeight / 2;
    }
  }

  function outline() {
    slider.max = String(last());
    drawMarks();
    fillEventKinds();
    fillMoves();
  }

  async function copyPosition() {
    const box = $("position-box");
    const response = await fetch(`position.json?n=${current}`);
    const data = await response.json();
    if (!response.ok) { box.hidden = false; box.textContent = data.error || "no position"; return; }
    const textValue = `${data.commands}\n\n${JSON.stringify(data.position, null, 1)}`;
    box.hidden = false;
    box.textContent = textValue;
    document.body.dataset.copied = String(data.step);
    try { await navigator.clipboard.writeText(textValue); } catch (error) { /* shown in the box to copy by hand */ }
  }

  async function fetchSummary() {
    const response = await fetch("timeline.json");
    summary = await response.json();
    $("title").textContent = `${summary.name} · ${summary.players} ${summary.players === 1 ? "player" : "players"} · seed ${summary.seed ?? "(revealed at the end)"}`;
    $("title").dataset.seed = summary.seed ?? "";
    $("copy-position").disabled = !finished();
  }

  function startAt() {
    const asked = params.get("step");
    if (asked !== null && /^-?[0-9]+$/.test(asked)) return Number(asked) < 0 ? summary.steps.length + Number(asked) : Number(asked);
    return config.live ? last() : Number(config.start || 0);
  }

  async function load() {
    await fetchSummary();
    fillPerspectives();
    const seat = params.get("seat");
    if (seat !== null && [...perspective.options].some((o) => o.value === seat)) perspective.value = seat;
    fillPerspectives();
    outline();
    await go(startAt());
    document.body.dataset.ready = "1";
  }

  async function over() {
    if (source) { source.close(); source = null; }
    const wasAtEnd = current >= last();
    await fetchSummary();
    summary.finished = true;
    $("status").textContent = "finished";
    $("status").className = "";
    fillPerspectives();
    outline();
    document.body.dataset.liveSteps = String(summary.steps.length);
    await go(wasAtEnd ? last() : current);
    document.body.dataset.over = "1";
    // The page around the viewer (the ladder's match page) shows the result once the match is over.
    if (window.parent !== window) window.parent.postMessage({ b99: "match-over" }, location.origin);
  }

  function follow() {
    source = new EventSource(`events?from=${summary.steps.length}`);
    $("status").textContent = "live";
    $("status").className = "live";
    source.addEventListener("step", (message) => {
      const data = JSON.parse(message.data);
      if (data.from > summary.steps.length) { over(); return; }
      const wasAtEnd = current >= last();
      summary.steps.length = data.from;
      summary.steps.push(...data.steps);
      outline();
      if (wasAtEnd && data.step.step === last()) { current = data.step.step; slider.value = String(current); showStep(data.step); document.body.dataset.step = String(current); }
      document.body.dataset.liveSteps = String(summary.steps.length);
    });
    source.addEventListener("over", () => { over(); });
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  perspective.addEventListener("change", () => { fillPerspectives(); go(current); });
  $("zoom").addEventListener("change", applyZoom);
  $("first").addEventListener("click", () => go(0));
  $("last").addEventListener("click", () => go(last()));
  $("prev").addEventListener("click", () => nextDecision(-1));
  $("next").addEventListener("click", () => nextDecision(1));
  $("back").addEventListener("click", () => go(current - 1));
  $("forward").addEventListener("click", () => go(current + 1));
  $("play").addEventListener("click", play);
  $("next-fault").addEventListener("click", nextFault);
  $("my-next").addEventListener("click", myNext);
  $("copy-position").addEventListener("click", copyPosition);
  for (const id of ["move-seat", "move-kind"]) $(id).addEventListener("change", fillMoves);
  $("move-search").addEventListener("input", fillMoves);

  // Keys: arrows step from decision to decision (Shift: one step), Home/End, Space plays or pauses, F the next
  // fault, M this seat's next decision. A focused button is never pressed again by Space or Enter's echo.
  const keys = {
    ArrowRight: (e) => (e.shiftKey ? go(current + 1) : nextDecision(1)),
    ArrowLeft: (e) => (e.shiftKey ? go(current - 1) : nextDecision(-1)),
    Home: () => go(0),
    End: () => go(last()),
    " ": () => play(),
    f: () => nextFault(),
    m: () => myNext(),
  };
  function typing(target) { return target instanceof HTMLInputElement && target.type !== "range" || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement; }
  document.addEventListener("keydown", (e) => {
    if (!summary || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action(e);
  }, true);
  document.addEventListener("keyup", (e) => { if (e.key === " " && !typing(e.target)) e.preventDefault(); }, true);
  for (const button of document.querySelectorAll("#controls button")) button.addEventListener("mouseup", () => button.blur());
  window.addEventListener("error", (e) => { document.body.dataset.scriptError = String(e.message); });
  load().then(() => { if (config.live && !summary.finished) follow(); });
})();
