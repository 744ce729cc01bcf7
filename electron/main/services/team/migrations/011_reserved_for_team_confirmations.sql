-- 011: reserved for the team confirmations (another branch owns this number). This placeholder
-- only keeps the numbering gapless on the branch that adds 012; at merge the real 011 replaces it.
SELECT 1;
