//! The arguments of a profile comparison as a host gives them in JSON (the JS API's
//! `compareProfiles`): the profiles to compare, and price tables that replace a profile's
//! default ones.

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::json::Json;
use super::path::Path;
use super::read::{each, list, object, one_of, Fields};
use super::PROFILES;
use crate::cache::{parse_price_table, PriceTable};
use crate::{Error, ProfileName};

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

/// Reads a comparison's options, `{ "prices": { "<profile>": <price table> } }`: the price
/// tables that replace the profiles' defaults.
///
/// # Errors
/// Invalid JSON, an unknown key or profile, a bad price table; each names its place
/// (`options.prices.codex: prices.extra: unknown field …`).
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_compare_options;
/// let error = parse_compare_options(r#"{ "prices": { "nobody": {} } }"#).unwrap_err();
/// assert!(error.to_string().starts_with("options.prices.nobody: unknown profile"));
/// ```
pub fn parse_compare_options(json: &str) -> Result<Vec<(ProfileName, PriceTable)>, Error> {
    let path = Path::Root.key("options");
    let tree = parse(json, &path)?;
    let fields = Fields::new(&tree, &path, &["prices"])?;
    let path = path.key("prices");
    let Some(prices) = fields.get("prices") else {
        return Ok(Vec::new());
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
    Ok(tables)
}

fn parse(json: &str, path: &Path<'_>) -> Result<Json, Error> {
    serde_json::from_str(json).map_err(|err| path.error(format!("invalid JSON: {err}")))
}
