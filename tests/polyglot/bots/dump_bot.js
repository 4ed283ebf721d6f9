#!/usr/bin/env node
// Test bot: writes every request as the JS SDK decoded it to $B99_DUMP (one JSON line each), takes option 0.
"use strict";
const fs = require("fs");
const path = require("path");
const { Bot, run } = require(path.resolve(__dirname, "..", "..", "..", "sdk", "js"));

class DumpBot extends Bot {
  choose(request) {
    const record = {
      decision: request.decision,
      view: request.view,
      options: request.options.map((o) => ({ id: o.id, label: o.label, payload: o.payload })),
      events: request.events,
    };
    fs.appendFileSync(process.env.B99_DUMP, JSON.stringify(record) + "\n");
    return 0;
  }
}

run(new DumpBot("dump-js")).catch((error) => {
  console.error(error.stack);
  process.exit(1);
});
