-- An agent's conversations are found by containment (participants @> ARRAY[agent]) through a GIN index
-- instead of scanning every conversation newest-first and testing each participant list
CREATE INDEX "conversation_participants_idx" ON "conversation" USING GIN ("participants");

-- The graph reads the busiest agent pairs first: in index order, no sort of every pair
CREATE INDEX "agent_pair_messages_agent_a_agent_b_idx" ON "agent_pair"("messages" DESC, "agent_a", "agent_b");
