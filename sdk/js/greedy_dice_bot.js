#!/usr/bin/env node
// Example bot that reads the typed view and payloads: in Underground Dice it stakes little and
// guesses the most likely sum of the dice still hidden; in any other game it takes the first option.
"use strict";
const { Bot, run } = require(".");

class CautiousBot extends Bot {
  choose(request) {
    if (request.game !== "underground_dice") return 0;
    const byPayload = (key) => request.options.filter((o) => o.payload[key] !== undefined);
    const stakes = byPayload("stake");
    if (stakes.length) return stakes.reduce((a, b) => (b.payload.stake < a.payload.stake ? b : a)).id;
    const guesses = byPayload("guess");
    if (guesses.length) {
      const view = request.view;
      const k = view.announced_dice || 1;
      // Expected total of k unseen dice, pin dice 1-3 and 4-5-6 dice 4-6 mixed as they remain.
      const pins = view.unused_pins, shigoro = view.unused_shigoro;
      const mean = (pins * 2 + shigoro * 5) / Math.max(1, pins + shigoro);
      const target = k * mean;
      return guesses.reduce((a, b) => (Math.abs(b.payload.guess - target) < Math.abs(a.payload.guess - target) ? b : a)).id;
    }
    return request.options[Math.floor(Math.random() * request.options.length)].id;
  }
}

run(new CautiousBot("cautious-js")).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
