//! The arguments of a profile comparison as a host gives them in JSON (the JS API's
//! `compareProfiles`): the profiles to compare, price tables that replace a profile's
//! default ones, and where the usage the clients read comes from.

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::json::Json;
use super::path::Path;
use super::read::{each, list, object, one_of, Fields};
use super::PROFILES;
use crate::cache::parse_price_table;
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
/// (`options.prices.codex: prices.extra: unknown field …`).
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
        let table = parse_price_table(&table.to_compact());
        tables.push((*profile, table.map_err(|e| path.error(e.to_string()))?));
    }
    Ok(CompareOptions {
        prices: tables,
        usage,
    })
}

fn parse(json: &str, path: &Path<'_>) -> Result<Json, Error> {
    serde_json::from_str(json).map_err(|err| path.error(format!("invalid JSON: {err}")))
}
