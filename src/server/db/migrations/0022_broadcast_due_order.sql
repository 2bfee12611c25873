-- The senders claim due rows in (next_attempt_at, id) order. The index of 0016 held
-- (next_attempt_at, broadcast_id), so every claim read and sorted all the rows snapshotted in
-- one batch (they share next_attempt_at): 30 ms a claim at 100,000 recipients, where an index
-- in the claim's own order hands over the first rows at once.
DROP INDEX broadcast_recipients_due_idx;
CREATE INDEX broadcast_recipients_due_idx ON broadcast_recipients (next_attempt_at, id)
  WHERE status = 'pending';
