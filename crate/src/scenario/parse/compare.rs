//! The arguments of a profile comparison as a host gives them in JSON (the JS API's
//! `compareProfiles`): the profiles to compare, price tables that replace a profile's
//! default ones, and where the usage the clients read comes from.

use alloc::format;
use alloc::vec::Vec;

use super::json::Json;
use super::path::Path;
use super::read::{each, list, natural, object, one_of, Fields};
use super::PROFILES;
use crate::cache::{PriceTable, PRICE_KEYS};
use crate::scenario::{CompareOptions, UsageSource};
use crate::{Error, ProfileName};

/// The names `options.usage` takes.
const USAGE: [(&str, UsageSource); UsageSource::ALL.len()] = {
    let mut table = [("", UsageSource::Simulated); UsageSource::ALL.len()];
    let mut i = 0;
    while i < table.len() {
        table[i] = (UsageSource::ALL[i].as_str(), UsageSource::ALL[i]);
        i += 1;
    }
    table
};

/// Reads the profiles to compare, a JSON array of profile names.
///
/// # Errors
/// Invalid JSON, not an array, or an unknown name (`profiles[1]: unknown profile …`).
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_profile_names;
/// use context_assembly::ProfileName;
/// assert_eq!(parse_profile_names(r#"["codex"]"#).unwrap(), [ProfileName::Codex]);
/// let error = parse_profile_names(r#"["codex", "claude"]"#).unwrap_err();
/// assert!(error.to_string().starts_with("profiles[1]: unknown profile \"claude\""));
/// ```
pub fn parse_profile_names(json: &str) -> Result<Vec<ProfileName>, Error> {
    let path = Path::Root.key("profiles");
    let tree = parse(json, &path)?;
    each(&tree, &path, one_of("profile", &PROFILES))
}

/// Reads a comparison's options, `{ "prices": { "<profile>": <price table> }, "usage":
/// "simulated" | "scenario" }`: the price tables that replace the profiles' defaults, and
/// where the usage the clients read comes from (`simulated` unless given).
///
/// # Errors
/// Invalid JSON, an unknown key, profile or usage, a bad price table; each names its place
/// (`options.prices.codex.extra: unknown field …`).
///
/// # Example
/// ```
/// use context_assembly::scenario::{parse_compare_options, UsageSource};
/// let error = parse_compare_options(r#"{ "prices": { "nobody": {} } }"#).unwrap_err();
/// assert!(error.to_string().starts_with("options.prices.nobody: unknown profile"));
/// let options = parse_compare_options(r#"{ "usage": "scenario" }"#).unwrap();
/// assert_eq!(options.usage, UsageSource::Scenario);
/// ```
pub fn parse_compare_options(json: &str) -> Result<CompareOptions, Error> {
    let path = Path::Root.key("options");
    let tree = parse(json, &path)?;
    let fields = Fields::new(&tree, &path, &["prices", "usage"])?;
    let usage = fields.or("usage", UsageSource::Simulated, one_of("usage", &USAGE))?;
    let path = path.key("prices");
    let Some(prices) = fields.get("prices") else {
        return Ok(CompareOptions {
            prices: Vec::new(),
            usage,
        });
    };
    let mut tables = Vec::new();
    for (name, table) in object(prices, &path)? {
        let path = path.key(name);
        let Some((_, profile)) = PROFILES.iter().find(|(known, _)| known == name) else {
            let names: Vec<&str> = PROFILES.iter().map(|(known, _)| *known).collect();
            let reason = format!("unknown profile; expected one of {}", list(&names));
            return Err(path.error(reason));
        };
        tables.push((*profile, price_table(table, &path)?));
    }
    Ok(CompareOptions {
        prices: tables,
        usage,
    })
}

/// A price table: every key of [`PRICE_KEYS`], each a whole number of micro-dollars per
/// million tokens up to 2^53 − 1 (what a JS number holds exactly).
fn price_table(table: &Json, path: &Path<'_>) -> Result<PriceTable, Error> {
    let fields = Fields::new(table, path, PRICE_KEYS)?;
    let price = |key| fields.required(key, natural(0, (1 << 53) - 1));
    Ok(PriceTable {
        input_per_mtok: price("inputPerMTok")?,
        cached_input_per_mtok: price("cachedInputPerMTok")?,
        cache_write_5m_per_mtok: price("cacheWrite5mPerMTok")?,
        cache_write_1h_per_mtok: price("cacheWrite1hPerMTok")?,
        output_per_mtok: price("outputPerMTok")?,
    })
}

fn parse(json: &str, path: &Path<'_>) -> Result<Json, Error> {
    serde_json::from_str(json).map_err(|err| path.error(format!("invalid JSON: {err}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    const SONNET: &str = r#"{"inputPerMTok":3000000,"cachedInputPerMTok":300000,
        "cacheWrite5mPerMTok":3750000,"cacheWrite1hPerMTok":6000000,"outputPerMTok":15000000}"#;

    fn prices(table: &str) -> Result<PriceTable, Error> {
        let options = parse_compare_options(&format!(r#"{{"prices": {{"codex": {table}}}}}"#))?;
        Ok(options.prices[0].1)
    }

    fn message(table: &str) -> alloc::string::String {
        prices(table).unwrap_err().to_string()
    }

    #[test]
    fn a_complete_table_reads_back_the_default() {
        assert_eq!(prices(SONNET), Ok(PriceTable::claude_sonnet()));
        let serialised = serde_json::to_string(&PriceTable::claude_sonnet()).unwrap();
        assert_eq!(prices(&serialised), Ok(PriceTable::claude_sonnet()));
    }

    #[test]
    fn every_error_names_its_field() {
        assert_eq!(
            message("[1]"),
            "options.prices.codex: expected an object, got array"
        );
        assert_eq!(
            message(r#"{"inputPerMTok":1}"#),
            "options.prices.codex.cachedInputPerMTok: required field is missing"
        );
        assert_eq!(
            message(&SONNET.replace("15000000", "-1")),
            "options.prices.codex.outputPerMTok: expected a whole number from 0 to \
             9007199254740991, got -1"
        );
        assert_eq!(
            message(&SONNET.replace(
                r#""cachedInputPerMTok":300000"#,
                r#""cachedInputPerMTok":0.3"#
            )),
            "options.prices.codex.cachedInputPerMTok: expected a whole number from 0 to \
             9007199254740991, got 0.3"
        );
        assert!(message(r#"{"a b":1}"#).starts_with(
            r#"options.prices.codex["a b"]: unknown field; expected one of "inputPerMTok""#
        ));
    }
}
