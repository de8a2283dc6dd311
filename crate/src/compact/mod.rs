//! Compaction: thresholds, the cheap strategies of other agents, and summaries (spec/strategies.md).

pub mod policies;
