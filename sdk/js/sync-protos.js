#!/usr/bin/env node
// Copy the protocol's .proto files into this package (proto/), so an installed copy of the SDK
// works on its own, for example inside a bot's directory in the strict sandbox. Run by `prepare`.
"use strict";
const fs = require("fs");
const path = require("path");

const source = path.resolve(__dirname, "..", "..", "proto", "b99");
const target = path.join(__dirname, "proto", "b99");

function copy(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const inner = path.join(from, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith("__")) copy(inner, path.join(to, entry.name));
    } else if (entry.name.endsWith(".proto")) fs.copyFileSync(inner, path.join(to, entry.name));
  }
}

if (fs.existsSync(source)) {
  fs.rmSync(target, { recursive: true, force: true });
  copy(source, target);
}
