// Generated from docs/schema/*.json by clients/typescript/scripts/generate-types.mjs: do not
// edit. `npm run generate` writes it again; the tests fail when it differs from the schema.

/** `T` with the members `K` present (the schema's `required` next to a `$ref`). */
export type WithRequired<T, K extends PropertyKey> = T extends unknown
  ? T & { [P in K & keyof T]-?: Exclude<T[P], undefined> }
  : never;

// ---- envelope.json: Envelope

/** a string of at most 64 characters, or an integer */
export type Id = (string | number);

export type EnvelopeClientEnvelope = {
  type: string;
  id?: Id;
  moved?: boolean;
};

/** §10: a refusal; it changes nothing */
export type ErrorFrame = {
  type: "error";
  code: ErrorCode;
  message: string;
  id?: Id;
};

/** stable codes, docs/protocol.md §10, §21, §23, §24. Open: a new code is not a breaking change for a client that shows `message`. */
export type ErrorCode = string;

// ---- client.json: Client to server messages

export type ClientHello = {
  type: "hello";
  id?: Id;
  moved?: boolean;
  protocol: number;
  client?: string;
};

export type ClientPing = {
  type: "ping";
  id?: Id;
  moved?: boolean;
};

export type ClientStart = {
  type: "start";
  id?: Id;
  moved?: boolean;
};

export type ClientSnapshot = {
  type: "snapshot";
  id?: Id;
  moved?: boolean;
};

export type ClientLeave = {
  type: "leave";
  id?: Id;
  moved?: boolean;
};

export type ClientResign = {
  type: "resign";
  id?: Id;
  moved?: boolean;
};

export type ClientUndo = {
  type: "undo";
  id?: Id;
  moved?: boolean;
};

export type ClientCancelSeek = {
  type: "cancel_seek";
  id?: Id;
  moved?: boolean;
};

export type ClientListRooms = {
  type: "list_rooms";
  id?: Id;
  moved?: boolean;
  offset?: number;
  limit?: number;
  state?: "waiting" | "playing" | "finished";
  expansions?: Array<string>;
};

export type ClientCreateRoom = {
  type: "create_room";
  id?: Id;
  moved?: boolean;
  setup?: {
    expansions?: Array<string>;
    options?: {
      [key: string]: unknown;
    };
    seed?: string;
    script?: {
      [key: string]: unknown;
    };
    players?: unknown;
  };
  expansions?: Array<string>;
  options?: {
    [key: string]: unknown;
  };
  seats?: number;
  public?: boolean;
  name?: string;
  spectator_delay?: number;
  bots?: Array<("random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert" | null)>;
  bot_pause_ms?: number;
  takeover_after?: number;
  takeover_level?: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
  match?: MatchOptions;
  rated?: boolean;
};

export type ClientJoin = {
  type: "join";
  id?: Id;
  moved?: boolean;
  room: string;
  name?: string;
  seat?: number;
  nonce?: string;
};

export type ClientNonce = {
  type: "nonce";
  id?: Id;
  moved?: boolean;
  nonce: string;
};

export type ClientSpectate = {
  type: "spectate";
  id?: Id;
  moved?: boolean;
  room: string;
};

export type ClientResume = {
  type: "resume";
  id?: Id;
  moved?: boolean;
  room: string;
  token?: string;
  last_seq?: number;
};

export type ClientMove = {
  type: "move";
  id?: Id;
  moved?: boolean;
  move: Move;
  seq?: number;
};

export type ClientChat = {
  type: "chat";
  id?: Id;
  moved?: boolean;
  text: string;
};

export type ClientReplay = {
  type: "replay";
  id?: Id;
  moved?: boolean;
  room: string;
  move?: number;
};

export type ClientHistory = {
  type: "history";
  id?: Id;
  moved?: boolean;
  from?: number;
};

export type ClientAddBot = {
  type: "add_bot";
  id?: Id;
  moved?: boolean;
  level: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
  seat?: number;
};

export type ClientRemoveBot = {
  type: "remove_bot";
  id?: Id;
  moved?: boolean;
  seat: number;
};

export type ClientUndoAnswer = {
  type: "undo_answer";
  id?: Id;
  moved?: boolean;
  accept: boolean;
};

export type ClientRematch = {
  type: "rematch";
  id?: Id;
  moved?: boolean;
  accept?: boolean;
  nonce?: string;
};

export type ClientAuthenticate = {
  type: "authenticate";
  id?: Id;
  moved?: boolean;
  session?: string;
};

export type ClientSeek = {
  type: "seek";
  id?: Id;
  moved?: boolean;
  seats?: number;
  expansions?: Array<string>;
  time_control?: "blitz" | "rapid" | "daily";
  rated?: boolean;
  best_of?: 1 | 3 | 5 | 7;
  bots_after_s?: number;
  nonce?: string;
};

export type ClientCreateTournament = {
  type: "create_tournament";
  id?: Id;
  moved?: boolean;
  /** the settings, §24 (open here) */
  tournament: {
    [key: string]: unknown;
  };
};

export type ClientTournament = {
  type: "tournament";
  id?: Id;
  moved?: boolean;
  tournament: string;
  action: "register" | "withdraw" | "check_in" | "add_bots" | "start" | "pause" | "resume" | "remove" | "bye";
  player?: string;
  count?: number;
  level?: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
};

export type ClientGetTournament = {
  type: "get_tournament";
  id?: Id;
  moved?: boolean;
  tournament: string;
};

export type ClientGetSeries = {
  type: "get_series";
  id?: Id;
  moved?: boolean;
  series: string;
};

/** Any client message (§4). Open on purpose: the server ignores members it does not know. */
export type ClientMessage = (ClientHello | ClientPing | ClientStart | ClientSnapshot | ClientLeave | ClientResign | ClientUndo | ClientCancelSeek | ClientListRooms | ClientCreateRoom | ClientJoin | ClientNonce | ClientSpectate | ClientResume | ClientMove | ClientChat | ClientReplay | ClientHistory | ClientAddBot | ClientRemoveBot | ClientUndoAnswer | ClientRematch | ClientAuthenticate | ClientSeek | ClientCreateTournament | ClientTournament | ClientGetTournament | ClientGetSeries);

// ---- server.json: Server to client messages

export type ServerWelcome = {
  type: "welcome";
  id?: Id;
  protocol: 1;
  server: string;
  limits: {
    max_message_bytes: number;
    message_rate: number;
    message_burst: number;
  };
};

export type ServerPong = {
  type: "pong";
  id?: Id;
};

export type ServerRooms = {
  type: "rooms";
  id?: Id;
  rooms: Array<RoomSummary>;
  total: number;
};

export type ServerRoomCreated = {
  type: "room_created";
  id?: Id;
  room: string;
};

export type ServerJoined = {
  type: "joined";
  id?: Id;
  room: string;
  seat: number;
  token?: string;
};

export type ServerAuthenticated = {
  type: "authenticated";
  id?: Id;
  player: {
    id: string;
    name: string;
    guest: boolean;
    bot: boolean;
  };
};

export type ServerMatchFound = {
  type: "match_found";
  room: string;
  seat: number;
  players: Array<string>;
  time_control?: string;
  rated?: boolean;
  series?: string;
  game?: number;
  best_of?: number;
  tournament?: string;
  round?: number;
};

export type ServerNonceSet = {
  type: "nonce_set";
  id?: Id;
  room: string;
  seat: number;
  nonce: string;
};

export type ServerSpectating = {
  type: "spectating";
  id?: Id;
  room: string;
};

export type ServerResumed = {
  type: "resumed";
  id?: Id;
  room: string;
  seat: number;
  seq: number;
};

export type ServerStarted = {
  type: "started";
  id?: Id;
  room: string;
};

export type ServerMoveAccepted = {
  type: "move_accepted";
  id?: Id;
  seq: number;
};

export type ServerChatSent = {
  type: "chat_sent";
  id?: Id;
};

export type ServerLeft = {
  type: "left";
  id?: Id;
  room: string;
};

export type ServerSnapshot = {
  type: "snapshot";
  id?: Id;
  room: string;
  seq: number;
  view: View;
  clock_elapsed_ms?: number;
};

export type ServerPatch = {
  type: "patch";
  room: string;
  seq: number;
  events: Events;
  patch: Patch;
};

export type ServerChat = {
  type: "chat";
  room: string;
  seat: number;
  name: (string | null);
  text: string;
};

export type ServerReplaced = {
  type: "replaced";
  room: string;
  seat: number;
};

export type ServerGoodbye = {
  type: "goodbye";
  reason: string;
};

export type ServerReplay = {
  type: "replay";
  id?: Id;
  room: string;
  move: number;
  moves: number;
  events: Events;
  game: Game;
  fairness?: {
    scheme?: string;
    commitment?: string;
    secret?: (string | null);
    nonces?: Array<(string | null)>;
  };
};

export type ServerHistory = {
  type: "history";
  id?: Id;
  room: string;
  from: number;
  to: number;
  moves: number;
  seq: number;
  entries: Array<{
    move: number;
    events: Events;
  }>;
};

export type ServerBotAdded = {
  type: "bot_added";
  id?: Id;
  room: string;
  seat: number;
  name: string;
  level: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
};

export type ServerBotRemoved = {
  type: "bot_removed";
  id?: Id;
  room: string;
  seat: number;
};

export type ServerError = ErrorFrame;

export type ServerMoved = {
  type: "moved";
  id?: Id;
  url: string;
  room?: string;
};

export type ServerResigned = {
  type: "resigned";
  id?: Id;
  room: string;
  seat: number;
};

export type ServerUndoRequested = {
  type: "undo_requested";
  id?: Id;
  room: string;
};

export type ServerUndone = {
  type: "undone";
  id?: Id;
  room: string;
};

export type ServerUndoAnswered = {
  type: "undo_answered";
  id?: Id;
  room: string;
  accept: boolean;
};

export type ServerRematchAnswered = {
  type: "rematch_answered";
  id?: Id;
  room: string;
  accept: boolean;
};

export type ServerRematchReady = {
  type: "rematch_ready";
  room: string;
  seat: number;
  token: string;
};

export type ServerSeeking = {
  type: "seeking";
  id?: Id;
  /** §24; open here */
  prefs: {
    [key: string]: unknown;
  };
  rating?: unknown;
};

export type ServerSeekCancelled = {
  type: "seek_cancelled";
  id?: Id;
};

export type ServerTournamentCreated = {
  type: "tournament_created";
  id?: Id;
  /** §24; open here */
  tournament: {
    [key: string]: unknown;
  };
};

export type ServerTournamentUpdated = {
  type: "tournament_updated";
  id?: Id;
  /** §24; open here */
  tournament: {
    [key: string]: unknown;
  };
};

export type ServerTournament = {
  type: "tournament";
  id?: Id;
  /** §24; open here */
  tournament: {
    [key: string]: unknown;
  };
};

export type ServerSeries = {
  type: "series";
  id?: Id;
  /** §24; open here */
  series: {
    [key: string]: unknown;
  };
};

/** Any server message (§5). Closed: a member the schema does not list fails validation. */
export type ServerMessage = (ServerWelcome | ServerPong | ServerRooms | ServerRoomCreated | ServerJoined | ServerAuthenticated | ServerMatchFound | ServerNonceSet | ServerSpectating | ServerResumed | ServerStarted | ServerMoveAccepted | ServerChatSent | ServerLeft | ServerSnapshot | ServerPatch | ServerChat | ServerReplaced | ServerGoodbye | ServerReplay | ServerHistory | ServerBotAdded | ServerBotRemoved | ServerError | ServerMoved | ServerResigned | ServerUndoRequested | ServerUndone | ServerUndoAnswered | ServerRematchAnswered | ServerRematchReady | ServerSeeking | ServerSeekCancelled | ServerTournamentCreated | ServerTournamentUpdated | ServerTournament | ServerSeries);

// ---- view.json: The view document

/** match options (§21, docs/options.md) */
export type MatchOptions = {
  clock?: "none" | "fischer" | "per_decision" | "correspondence";
  initial_s?: number;
  increment_s?: number;
  decision_s?: number;
  move_hours?: number;
  timeout?: "bot" | "forfeit";
  undo?: "consent" | "off" | "free";
  away_limit_s?: number;
  answer_s?: number;
  vacation?: boolean;
};

/** The view document (§6): the whole of it, as in a snapshot */
export type View = {
  room: Room;
  game: (Game | null);
};

export type SeatEntry = {
  seat: number;
  name: (string | null);
  connected: boolean;
  bot?: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
  played_by?: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
};

export type Fairness = {
  scheme: string;
  commitment: string;
  nonces: Array<(string | null)>;
  secret?: (string | null);
  rematch_commitment?: (string | null);
};

export type Room = {
  id: string;
  name: string;
  public: boolean;
  state: "waiting" | "playing" | "finished";
  seats: Array<SeatEntry>;
  expansions: Array<string>;
  /** the room's rule options, open: keys are docs/options.md's */
  options: {
    [key: string]: unknown;
  };
  spectator_delay: number;
  spectators: number;
  fairness?: Fairness;
  bots?: {
    pause_ms?: number;
    takeover_after?: number;
    takeover_level?: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
  };
  match?: MatchOptions;
  clock?: {
    remaining_ms: Array<number>;
    running: (number | null);
    vacation?: Array<number>;
  };
  undo_request?: {
    seat: number;
    waiting: Array<number>;
  };
  rematch?: {
    accepted?: Array<number>;
    declined?: Array<number>;
    nonces?: Array<(string | null)>;
    room?: (string | null);
  };
};

export type PlacedTile = {
  x: number;
  y: number;
  tile: string;
  rotation: 0 | 90 | 180 | 270;
};

export type Figure = {
  seat: number;
  figure: "meeple" | "shepherd";
  x: number;
  y: number;
  feature: string;
  protected?: true;
};

export type Player = {
  seat: number;
  name?: string;
  score: number;
  supply: {
    meeple: number;
    shepherd?: number;
  };
};

export type Flock = {
  x: number;
  y: number;
  feature: string;
  seats: Array<number>;
  tokens: Array<"sheep1" | "sheep2" | "sheep3" | "sheep4">;
  sheep: number;
};

/** The game part (§6), with every expansion's keys (Hills & Sheep: bag, flocks; Peasant Revolts: set_aside; Easter: eggs, bunny, bunny_go; Gifts: gift_deck, gift_discard, hand_sizes, extra_tile, hand). Closed: a key not listed here fails. */
export type Game = {
  status: "playing" | "finished";
  expansions: Array<string>;
  turn: number;
  active: (number | null);
  awaiting: ({
    seat: number;
    decision: "place_tile" | "figure" | "flock" | "protect" | "choose_tile" | "bunny";
  } | null);
  scores: Array<number>;
  players: Array<Player>;
  tile: (string | null);
  tiles_left: number;
  board: Array<PlacedTile>;
  figures: Array<Figure>;
  discarded: Array<string>;
  viewer: (number | "spectator");
  legal_moves?: Array<LegalMove>;
  forfeited?: Array<number>;
  bag?: number;
  flocks?: Array<Flock>;
  set_aside?: number;
  eggs?: Array<number>;
  bunny?: ({
    x: number;
    y: number;
  } | null);
  bunny_go?: ({
    seat: number;
    roll: number;
    visited: Array<MoveSquare>;
  } | null);
  gift_deck?: number;
  gift_discard?: Array<string>;
  hand_sizes?: Array<number>;
  extra_tile?: (string | null);
  hand?: Array<string>;
};

/** one RFC 6902 operation; the server uses add, remove and replace only (§7) */
export type PatchOp = {
  op: "add" | "remove" | "replace";
  path: string;
  value?: unknown;
};

export type Patch = Array<PatchOp>;

/** A room summary (§5: rooms, /api/rooms) */
export type RoomSummary = {
  id: string;
  name: string;
  public: boolean;
  state: "waiting" | "playing" | "finished";
  seats: number;
  taken: number;
  players: Array<string>;
  expansions: Array<string>;
  spectators: number;
  spectator_delay: number;
  commitment?: string;
  bots?: Array<{
    seat: number;
    name: string;
    level: "random" | "greedy" | "strong" | "ismcts" | "beginner" | "casual" | "intermediate" | "advanced" | "expert";
  }>;
  match?: MatchOptions;
  url?: string;
};

// ---- events.json: Events

export type EventTurnStarted = {
  type: "turn_started";
  seat: number;
};

export type EventTileDrawn = {
  type: "tile_drawn";
  seat: number;
  tile: string;
};

export type EventTileDiscarded = {
  type: "tile_discarded";
  seat: number;
  tile: string;
};

export type EventTilePlaced = {
  type: "tile_placed";
  seat: number;
  tile: string;
  x: number;
  y: number;
  rotation: 0 | 90 | 180 | 270;
};

export type EventFigureDeployed = {
  type: "figure_deployed";
  seat: number;
  figure: "meeple" | "shepherd";
  x: number;
  y: number;
  feature: string;
  kind: "road" | "city" | "monastery" | "field";
};

export type EventFigureReturned = {
  type: "figure_returned";
  seat: number;
  figure: "meeple" | "shepherd";
  x: number;
  y: number;
  feature: string;
  kind: "road" | "city" | "monastery" | "field";
};

export type EventFeatureCompleted = {
  type: "feature_completed";
  x: number;
  y: number;
  feature: string;
  kind: "road" | "city" | "monastery" | "field";
  points: number;
  owners: Array<number>;
};

/** `x`, `y`, `feature`, `kind` are absent for eggs and gifts */
export type EventPoints = {
  type: "points";
  seat: number;
  points: number;
  x?: number;
  y?: number;
  feature?: string;
  kind?: "road" | "city" | "monastery" | "field";
  final: boolean;
  reason?: "flock" | "revolt" | "protection" | "cash_out" | "eggs" | "gifts";
};

export type EventGameFinished = {
  type: "game_finished";
};

export type EventTileHidden = {
  type: "tile_hidden";
  seat: number;
};

export type EventTokenDrawn = {
  type: "token_drawn";
  seat: number;
  token: "sheep1" | "sheep2" | "sheep3" | "sheep4" | "wolf";
};

export type EventFlockScored = {
  type: "flock_scored";
  x: number;
  y: number;
  feature: string;
  kind: "road" | "city" | "monastery" | "field";
  points: number;
  seats: Array<number>;
};

export type EventFlockLost = {
  type: "flock_lost";
  x: number;
  y: number;
  feature: string;
  kind: "road" | "city" | "monastery" | "field";
  points: number;
  seats: Array<number>;
};

export type EventRevolt = {
  type: "revolt";
  seat: number;
  kind: "road" | "city" | "monastery";
};

export type EventGiftReceived = {
  type: "gift_received";
  seat: number;
};

export type EventGiftOpened = {
  type: "gift_opened";
  seat: number;
  card: string;
};

export type EventFigureMoved = {
  type: "figure_moved";
  seat: number;
  figure: "meeple" | "shepherd";
  x: number;
  y: number;
  feature: string;
  kind: "road" | "city" | "monastery" | "field";
  from: string;
};

export type EventBunnyPlaced = {
  type: "bunny_placed";
  seat: number;
  x: number;
  y: number;
};

export type EventNestScored = {
  type: "nest_scored";
  seat: number;
  x: number;
  y: number;
};

export type EventDieRolled = {
  type: "die_rolled";
  seat: number;
  roll: number;
};

export type EventBunnyMoved = {
  type: "bunny_moved";
  seat: number;
  x: number;
  y: number;
};

export type EventEggsCollected = {
  type: "eggs_collected";
  seat: number;
  x: number;
  y: number;
  eggs: number;
};

export type EventBunnyStuck = {
  type: "bunny_stuck";
  seat: number;
};

export type EventUndoRequested = {
  type: "undo_requested";
  seat: number;
};

export type EventUndoAnswered = {
  type: "undo_answered";
  seat: number;
  accept: boolean;
};

export type EventUndoDeclined = {
  type: "undo_declined";
  seat: number;
  reason: "refused" | "no_answer" | "moved" | "forfeit";
};

export type EventUndoDone = {
  type: "undo_done";
  seat: number;
};

export type EventTimedOut = {
  type: "timed_out";
  seat: number;
};

export type EventForfeited = {
  type: "forfeited";
  seat: number;
  reason: "resign" | "timeout" | "away";
};

export type EventRematchOffered = {
  type: "rematch_offered";
  seat: number;
};

export type EventVacationStarted = {
  type: "vacation_started";
  seat: number;
};

export type EventVacationEnded = {
  type: "vacation_ended";
  seat: number;
};

/** One event of a patch (§8): closed, every member listed. */
export type Event = (EventTurnStarted | EventTileDrawn | EventTileDiscarded | EventTilePlaced | EventFigureDeployed | EventFigureReturned | EventFeatureCompleted | EventPoints | EventGameFinished | EventTileHidden | EventTokenDrawn | EventFlockScored | EventFlockLost | EventRevolt | EventGiftReceived | EventGiftOpened | EventFigureMoved | EventBunnyPlaced | EventNestScored | EventDieRolled | EventBunnyMoved | EventEggsCollected | EventBunnyStuck | EventUndoRequested | EventUndoAnswered | EventUndoDeclined | EventUndoDone | EventTimedOut | EventForfeited | EventRematchOffered | EventVacationStarted | EventVacationEnded);

export type Events = Array<Event>;

// ---- moves.json: Moves

export type MovePlaceTile = {
  type: "place_tile";
  seat?: number;
  x: number;
  y: number;
  rotation: 0 | 90 | 180 | 270;
};

export type MoveDeploy = {
  type: "deploy";
  seat?: number;
  figure?: "meeple" | "shepherd";
  x: number;
  y: number;
  feature: string;
  protect?: boolean;
};

export type MovePass = {
  type: "pass";
  seat?: number;
};

export type MoveFlock = {
  type: "flock";
  seat?: number;
  choice: "expand" | "herd";
};

export type MoveReturnFigure = {
  type: "return_figure";
  seat?: number;
  figure?: "meeple" | "shepherd";
  x: number;
  y: number;
  feature: string;
};

export type MoveProtect = {
  type: "protect";
  seat?: number;
  x: number;
  y: number;
  feature: string;
};

export type MoveBunny = {
  type: "bunny";
  seat?: number;
  path: Array<MoveSquare>;
};

export type MoveOpenGift = {
  type: "open_gift";
  seat?: number;
  card: "synod" | "road_sweeper" | "cash_out" | "change_position" | "take_two";
  x?: number;
  y?: number;
  feature?: string;
  to?: string;
  protect?: boolean;
};

export type MoveChooseTile = {
  type: "choose_tile";
  seat?: number;
  index: 0 | 1;
};

export type MoveSquare = [number, number];

/** A move as a client sends it (§9, record form). Open: unknown members are ignored by the server. */
export type Move = (MovePlaceTile | MoveDeploy | MovePass | MoveFlock | MoveReturnFigure | MoveProtect | MoveBunny | MoveOpenGift | MoveChooseTile);

/** A move as the server writes it (legal_moves, records): closed. */
export type LegalMove = WithRequired<Move, "seat">;

// ---- record.json: Game record

/** A game record (../shared/spec/game-record.md, docs/protocol.md §18). Open at the top level on purpose: replay ignores other keys (the test records' `description` and `expect`); setup and moves are closed. */
export type Record = {
  format: "carcassonne-record/1";
  setup: RecordSetup;
  moves: Array<RecordEntry>;
  /** docs/fairness.md; open here */
  fairness?: {
    [key: string]: unknown;
  };
};

export type RecordSetup = {
  players: Array<{
    name: string;
    player?: string;
  }>;
  expansions?: Array<string>;
  options?: {
    [key: string]: unknown;
  };
  seed?: string;
  script?: {
    deck?: Array<string>;
    sheep?: Array<string>;
    gifts?: Array<string>;
    dice?: Array<number>;
    revolt_removed?: Array<string>;
  };
};

export type RecordForfeit = {
  type: "forfeit";
  seat: number;
  reason: "resign" | "timeout" | "away";
  seats?: Array<number>;
};

/** a move in record form (seat written), with `timeout` when a bot made it on time-out; or a forfeit */
export type RecordEntry = (RecordForfeit | WithRequired<Move, "seat"> & {
  timeout?: true;
});
