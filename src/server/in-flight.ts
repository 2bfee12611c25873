/**
 * The longest a request in flight may keep a stopping instance up before it is cut: server.ts
 * cuts it, stop-signals.ts counts it in the stop's deadline.
 */
export const IN_FLIGHT_MS = 10_000;
