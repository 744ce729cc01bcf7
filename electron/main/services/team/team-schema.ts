/**
 * The team schema version this app speaks: the number of the last migration in migrations/.
 * A desk refuses a database at another version (older: the administrator runs team:migrate;
 * newer: this app must be updated). A test keeps it equal to the last migration file.
 */
export const TEAM_SCHEMA_VERSION = 13

/** The channel every write announces itself on (NOTIFY at commit); desks LISTEN to it. */
export const TEAM_EVENTS_CHANNEL = 'payout_desk_events'
