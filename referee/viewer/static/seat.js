// The browser seat: shows this seat's picture and options; a click on the picture or the list sends the choice.
// A part of the picture answers only for the options of its own area: this seat's area, or the common table
// (never another seat's area, whose parts carry the same kinds of names). Data goes in as text, never as HTML.
(function () {
  const $ = (id) => document.getElementById(id);
  let version = -1, options = [], seat = 0;

  function text(tag, content, cls) {
    const node = document.createElement(tag);
    node.textContent = content;
    if (cls) node.className = cls;
    return node;
  }

  async function choose(id) {
    // The page is cleared before the answer is sent: the next request may be shown before this reply returns.
    const shownVersion = version;
    options = [];
    $("options").replaceChildren();
    $("hint").textContent = "";
    document.querySelectorAll(".pick").forEach((node) => node.classList.remove("pick"));
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    $("status").textContent = `you chose ${id}; the others are playing`;
    const response = await fetch("choose", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ option: id }) });
    const answer = await response.json();
    if (!response.ok && version === shownVersion) { $("status").textContent = answer.error; version = -1; }
  }

  function showPicture(svgText) {
    const svg = new DOMParser().parseFromString(svgText || "<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") { $("picture").replaceChildren(text("p", "the picture could not be drawn")); return; }
    for (const bad of svg.querySelectorAll("script, foreignObject")) bad.remove();
    for (const node of [svg, ...svg.querySelectorAll("*")]) {
      for (const attribute of [...node.attributes]) if (/^on/i.test(attribute.name)) node.removeAttribute(attribute.name);
    }
    $("picture").replaceChildren(document.importNode(svg, true));
  }

  function bindPicture() {
    let bound = 0;
    for (const node of document.querySelectorAll("#picture [data-keys]")) {
      const area = node.closest("[data-seat-area]");
      if (area && area.getAttribute("data-seat-area") !== String(seat)) continue;
      const keys = node.getAttribute("data-keys").split(" ");
      const option = options.find((o) => keys.includes(o.id));
      if (!option) continue;
      bound += 1;
      node.classList.add("pick");
      node.dataset.option = option.id;
      node.addEventListener("click", (event) => { event.stopPropagation(); choose(option.id); });
      if (!node.querySelector("title")) {
        const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
        tip.textContent = option.label;
        node.append(tip);
      }
    }
    return bound;
  }

  function showOptions() {
    const filter = $("option-filter").value.trim().toLowerCase();
    $("option-filter").hidden = options.length <= 12;
    $("options").replaceChildren(...options.filter((o) => !filter || `${o.label} ${o.id}`.toLowerCase().includes(filter)).map((o) => {
      const button = text("button", o.label);
      button.title = o.id;
      button.dataset.option = o.id;
      button.addEventListener("click", () => choose(o.id));
      return button;
    }));
  }

  function show(state) {
    seat = state.seat;
    showPicture(state.svg);
    options = state.options;
    $("decision").textContent = options.length ? `your decision: ${state.decision.replaceAll("_", " ")}` : "your options";
    $("option-filter").value = "";
    showOptions();
    $("log").replaceChildren(...state.log.slice().reverse().map((line) => text("li", line)));
    const bound = bindPicture();
    $("hint").textContent = !options.length ? "" : bound ? "Click a highlighted part of the picture, or an option here." : "Choose an option here.";
    if (state.result) {
      $("status").textContent = "game over";
      const line = text("p", "result: " + state.result.ranks.map((r, s) => `seat ${s}${s === state.seat ? " (you)" : ""} rank ${r}, score ${state.result.scores[s]}`).join("; "));
      $("result").replaceChildren(line);
      if (state.replay) {
        const link = text("a", "watch the replay");
        link.href = state.replay; link.id = "replay-link";
        $("result").append(link);
      }
      document.body.dataset.over = "1";
      if (state.final) document.body.dataset.final = "1";
    } else if (options.length) {
      $("status").textContent = "your turn";
    }
    document.body.dataset.version = String(state.version);
    document.body.dataset.ready = "1";
  }

  async function poll() {
    for (;;) {
      try {
        const response = await fetch(`state.json?since=${version}`);
        const state = await response.json();
        if (state.version !== version) { version = state.version; show(state); }
        if (state.result && state.final) return;
        if (state.result) await new Promise((r) => setTimeout(r, 200));
      } catch (error) {
        $("status").textContent = "connection lost; retrying";
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
  $("option-filter").addEventListener("input", showOptions);
  // Space and Enter never press again a button that was clicked (it is gone or stale by then).
  document.addEventListener("keyup", (e) => { if (e.key === " " && e.target instanceof HTMLButtonElement) e.preventDefault(); }, true);
  window.addEventListener("error", (e) => { document.body.dataset.scriptError = String(e.message); });
  poll();
})();
