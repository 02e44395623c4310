/** The four phases of a session, spelled as the seed and `session_transition` payloads spell them. */
export const Phase = {
  WAIT_USER: 'WAIT_USER',
  MODEL_TURN: 'MODEL_TURN',
  TOOL_EXEC: 'TOOL_EXEC',
  FOLLOW_UP: 'FOLLOW_UP',
} as const;

export type SessionPhase = (typeof Phase)[keyof typeof Phase];

/** The transitions the seed draws; the session never takes any other. */
export const TRANSITIONS = {
  WAIT_USER: ['MODEL_TURN', 'WAIT_USER'],
  MODEL_TURN: ['TOOL_EXEC'],
  TOOL_EXEC: ['WAIT_USER', 'FOLLOW_UP'],
  FOLLOW_UP: ['TOOL_EXEC'],
} as const satisfies Record<SessionPhase, readonly SessionPhase[]>;
