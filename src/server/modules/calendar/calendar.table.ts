export interface CalendarFeedsTable {
  /** The user's id (`users.id`); the row goes with the account. */
  user_id: string;
  /** sha256 of the feed's secret, hex; unique: the feed's address is looked up by it. */
  secret_hash: string;
  created_at: string;
}
