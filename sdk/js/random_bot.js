#!/usr/bin/env node
// Example bot: a random legal option for any game.
// Run it in a match:  b99 match underground_dice --bot "node sdk/js/random_bot.js" --bot random
"use strict";
const { Bot, run } = require(".");

class RandomBot extends Bot {
  onGameStart(start) {
    console.error(`playing ${start.game} as seat ${start.seat} of ${start.players}`);
  }

  choose(request) {
    return request.options[Math.floor(Math.random() * request.options.length)].id;
  }

  onGameOver(over) {
    console.error(`game over: ${over.summary}`);
  }
}

run(new RandomBot("random-js")).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
