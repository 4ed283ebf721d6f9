// Types of the B99 Arena Node SDK (index.js). Views, payloads and event data are the game's proto
// messages as plain objects keyed by proto field names; describe them per game in your bot.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface EventInfo {
  sequence: number;
  kind: string;
  data: { [field: string]: Json };
}

export interface OptionInfo {
  index: number;
  id: string;
  label: string;
  payload: { [field: string]: Json };
}

export interface ClockInfo {
  perDecisionSeconds: number;
  bankRemainingSeconds: number;
  strikes: number;
  strikesAllowed: number;
}

export interface GameStartInfo {
  matchId: string;
  game: string;
  seat: number;
  players: number;
  variants: { [flag: string]: Json };
  events: EventInfo[];
}

export interface Request {
  requestId: number;
  game: string;
  seat: number;
  players: number;
  variants: { [flag: string]: Json };
  decision: string;
  view: { [field: string]: Json };
  options: OptionInfo[];
  events: EventInfo[];
  clock: ClockInfo;
}

export interface GameOverInfo {
  ranks: number[];
  scores: number[];
  events: EventInfo[];
  summary: string;
}

/** An option id, an option index, or the option itself. */
export type Answer = string | number | OptionInfo;

export class Bot {
  constructor(name?: string);
  name: string;
  choose(request: Request): Answer | Promise<Answer>;
  onGameStart(start: GameStartInfo): void | Promise<void>;
  onGameOver(over: GameOverInfo): void | Promise<void>;
}

export interface RunOptions {
  address?: string;
  token?: string;
  name?: string;
  /** Seconds to wait before exiting (code 3) when the seat token is rejected; default 10. */
  backoffSeconds?: number;
}

/** Play one game; resolves with the game over, or null if the stream ended before it. */
export function run(bot: Bot, options?: RunOptions): Promise<GameOverInfo | null>;

export function unpack(game: string, any: { type_url: string; value: Uint8Array } | null): { [field: string]: Json };

export const PROTOCOL_VERSION: number;
export const ADDRESS_VARIABLE: string;
export const TOKEN_VARIABLE: string;
