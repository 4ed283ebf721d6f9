// The browser seat: shows this seat's picture and options; a click on the picture or the list sends the choice.
(function () {
  const $ = (id) => document.getElementById(id);
  let version = -1, options = [];

  async function choose(id) {
    const response = await fetch("choose", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ option: id }) });
    const answer = await response.json();
    if (!response.ok) { $("status").textContent = answer.error; return; }
    $("status").textContent = `you chose ${id}; the others are playing`;
    options = [];
    $("options").replaceChildren();
    document.querySelectorAll(".pick").forEach((node) => node.classList.remove("pick"));
  }

  function bindPicture() {
    for (const node of document.querySelectorAll("#picture [data-keys]")) {
      const keys = node.getAttribute("data-keys").split(" ");
      const option = options.find((o) => keys.includes(o.id));
      if (!option) continue;
      node.classList.add("pick");
      node.dataset.option = option.id;
      node.addEventListener("click", (event) => { event.stopPropagation(); choose(option.id); });
      if (!node.querySelector("title")) {
        const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
        tip.textContent = option.label;
        node.append(tip);
      }
    }
  }

  function show(state) {
    $("picture").innerHTML = state.svg;
    options = state.options;
    $("decision").textContent = options.length ? `your decision: ${state.decision.replaceAll("_", " ")}` : "your options";
    $("options").replaceChildren(...options.map((o) => {
      const button = document.createElement("button");
      button.textContent = o.label;
      button.title = o.id;
      button.dataset.option = o.id;
      button.addEventListener("click", () => choose(o.id));
      return button;
    }));
    $("log").replaceChildren(...state.log.slice().reverse().map((line) => { const li = document.createElement("li"); li.textContent = line; return li; }));
    bindPicture();
    if (state.result) {
      $("status").textContent = "game over";
      $("result").innerHTML = "";
      const line = document.createElement("p");
      line.textContent = "result: " + state.result.ranks.map((r, s) => `seat ${s}${s === state.seat ? " (you)" : ""} rank ${r}, score ${state.result.scores[s]}`).join("; ");
      $("result").append(line);
      if (state.replay) {
        const link = document.createElement("a");
        link.href = state.replay; link.id = "replay-link"; link.textContent = "watch the replay";
        $("result").append(link);
      }
      document.body.dataset.over = "1";
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
        if (state.result) return;
      } catch (error) {
        $("status").textContent = "connection lost; retrying";
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
  window.addEventListener("error", (e) => { document.body.dataset.scriptError = String(e.message); });
  poll();
})();
