//! The collectors of reminders: throttled, delta and event kinds (spec §7.3–7.8, §7.10).
