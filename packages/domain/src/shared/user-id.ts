/** The authenticated subject; the domain never sees where it came from. */
export type UserId = string;
