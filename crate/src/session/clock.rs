//! Local dates from logical milliseconds: the only calendar the engine needs (§7.7).

use alloc::format;
use alloc::string::String;

const MS_PER_DAY: i64 = 86_400_000;

/// The local date `YYYY-MM-DD` of `at_ms` (ms since the Unix epoch) in a time zone
/// `utc_offset_minutes` from UTC.
///
/// # Example
/// ```
/// use context_assembly::session::local_date;
/// assert_eq!(local_date(0, 0), "1970-01-01");
/// assert_eq!(local_date(1_764_547_200_000, 0), "2025-12-01");
/// assert_eq!(local_date(1_764_547_200_000, -60), "2025-11-30"); // an hour west of UTC
/// ```
pub fn local_date(at_ms: u64, utc_offset_minutes: i32) -> String {
    let local = i64::try_from(at_ms)
        .unwrap_or(i64::MAX / 2)
        .saturating_add(i64::from(utc_offset_minutes) * 60_000);
    let (year, month, day) = civil_from_days(local.div_euclid(MS_PER_DAY));
    format!("{year:04}-{month:02}-{day:02}")
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_days_and_year_ends() {
        assert_eq!(local_date(951_782_400_000, 0), "2000-02-29");
        assert_eq!(local_date(1_767_225_599_999, 0), "2025-12-31");
        assert_eq!(local_date(1_767_225_600_000, 0), "2026-01-01");
        assert_eq!(local_date(1_767_225_600_000, 840), "2026-01-01");
        assert!(local_date(u64::MAX, 0).len() >= 10);
    }
}
