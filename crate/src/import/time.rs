//! The logs' timestamps (RFC 3339, as `Date.prototype.toISOString` and chrono write them)
//! as milliseconds since the Unix epoch.

/// `2025-12-01T10:00:00.123Z` (or with `+02:00`, any number of fraction digits) in ms since
/// the epoch; `None` for anything else or a time before 1970.
pub(super) fn parse_timestamp(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || bytes[4] != b'-' || bytes[7] != b'-' || bytes[10] != b'T' {
        return None;
    }
    if bytes[13] != b':' || bytes[16] != b':' {
        return None;
    }
    let year = digits(&text[0..4])?;
    let month = digits(&text[5..7])?;
    let day = digits(&text[8..10])?;
    let hour = digits(&text[11..13])?;
    let minute = digits(&text[14..16])?;
    let second = digits(&text[17..19])?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let (millis, zone) = fraction(text.get(19..)?)?;
    let offset_minutes = zone_offset(zone)?;
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second.min(60);
    let ms = seconds * 1_000 + millis - offset_minutes * 60_000;
    u64::try_from(ms).ok()
}

fn digits(text: &str) -> Option<i64> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The milliseconds of an optional `.fff…` part, and what follows it.
fn fraction(rest: &str) -> Option<(i64, &str)> {
    let Some(after_dot) = rest.strip_prefix('.') else {
        return Some((0, rest));
    };
    let count = after_dot.bytes().take_while(u8::is_ascii_digit).count();
    if count == 0 {
        return None;
    }
    let mut millis = 0;
    for (i, b) in after_dot.bytes().take(3).enumerate() {
        if i < count {
            millis = millis * 10 + i64::from(b - b'0');
        }
    }
    for _ in count..3 {
        millis *= 10;
    }
    Some((millis, &after_dot[count..]))
}

fn zone_offset(zone: &str) -> Option<i64> {
    if zone == "Z" || zone == "z" {
        return Some(0);
    }
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    if zone.len() != 6 || zone.as_bytes()[3] != b':' {
        return None;
    }
    Some(sign * (digits(&zone[1..3])? * 60 + digits(&zone[4..6])?))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse_timestamp;

    #[test]
    fn timestamps_as_the_clients_write_them() {
        assert_eq!(
            parse_timestamp("2025-12-01T00:00:00.000Z"),
            Some(1_764_547_200_000)
        );
        assert_eq!(
            parse_timestamp("2025-12-01T00:00:01.5Z"),
            Some(1_764_547_201_500)
        );
        assert_eq!(
            parse_timestamp("2025-12-01T02:00:00.123456+02:00"),
            Some(1_764_547_200_123)
        );
        assert_eq!(
            parse_timestamp("2024-02-29T12:00:00Z"),
            Some(1_709_208_000_000)
        );
        assert_eq!(parse_timestamp("yesterday"), None);
        assert_eq!(parse_timestamp("1969-12-31T23:59:59Z"), None);
        assert_eq!(parse_timestamp("2025-13-01T00:00:00Z"), None);
    }
}
