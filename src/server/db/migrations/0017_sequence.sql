-- DESIGN.md "The mailing list": the follow-up sequence. Its steps are broadcasts of kind
-- 'sequence' (0016), each sent a number of days after a subscriber confirmed; the periodic work
-- enqueues a step's row for each subscriber whose day has come.

-- The step's place in the sequence and its delay after confirmation; a broadcast has neither.
ALTER TABLE broadcasts
  ADD COLUMN position integer,
  ADD COLUMN delay_days integer CHECK (delay_days BETWEEN 0 AND 365),
  ADD CONSTRAINT broadcasts_sequence_step_check
    CHECK ((kind = 'sequence') = (position IS NOT NULL AND delay_days IS NOT NULL));

-- The one sequence's switch. Off: no new step is enqueued (what is queued still goes).
-- active_since: when it was last switched on; a step is not enqueued for a subscriber whose
-- day for it had passed well before then (see sequence-enqueue.ts).
CREATE TABLE list_sequence (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  active boolean NOT NULL DEFAULT false,
  active_since timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO list_sequence DEFAULT VALUES;

-- A subscriber's sequence ends for good at a verified paid order for their address, or at an
-- unsubscribe: when and why. Their steps not yet sent are skipped in the same transaction.
ALTER TABLE list_subscribers
  ADD COLUMN sequence_ended_at timestamptz,
  ADD COLUMN sequence_end_reason text CHECK (sequence_end_reason IN ('purchase', 'unsubscribed')),
  ADD CONSTRAINT list_subscribers_sequence_end_check
    CHECK ((sequence_ended_at IS NULL) = (sequence_end_reason IS NULL));

-- The enqueuing scan: subscribers still in the sequence, by the day they confirmed.
CREATE INDEX list_subscribers_sequence_idx ON list_subscribers (confirmed_at)
  WHERE status = 'confirmed' AND sequence_ended_at IS NULL;
