//! Names a user may give for a GPU (`data/names.toml`): family aliases
//! that are not models, and the family model that runs a processor's code.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NamesFile {
    default_model: String,
    aliases: BTreeMap<String, String>,
    family: BTreeMap<String, String>,
}

/// The embedded table, parsed once (a test checks that it parses).
fn table() -> &'static NamesFile {
    static TABLE: OnceLock<NamesFile> = OnceLock::new();
    TABLE.get_or_init(|| toml::from_str(include_str!("../data/names.toml")).unwrap_or_default())
}

/// The model a program runs on when neither `--arch` nor its file names
/// a GPU.
pub fn default_model() -> &'static str {
    &table().default_model
}

/// The processor a family alias (`gcn3`, `gcn5`, ...) stands for.
pub fn alias_target(name: &str) -> Option<&'static str> {
    table().aliases.get(name).map(String::as_str)
}

/// The processor-name prefixes and the family model each runs, in the
/// table's order (for listing the names `--arch` takes).
pub fn families() -> impl Iterator<Item = (&'static str, &'static str)> {
    table()
        .family
        .iter()
        .map(|(prefix, model)| (prefix.as_str(), model.as_str()))
}

/// The family model that runs code for processor `processor` (`gfx1031`
/// runs on `rdna2`): the entry with the longest matching name prefix.
pub fn family_model(processor: &str) -> Option<&'static str> {
    table()
        .family
        .iter()
        .filter(|(prefix, _)| processor.starts_with(prefix.as_str()))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, model)| model.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_names_built_in_models() {
        let parsed: NamesFile = toml::from_str(include_str!("../data/names.toml")).unwrap();
        assert!(!parsed.aliases.is_empty() && !parsed.family.is_empty());
        for model in parsed.family.values() {
            assert!(crate::ArchSpec::builtin(model).is_ok(), "{model}");
        }
        assert_eq!(family_model("gfx1012"), Some("rdna1"));
        assert_eq!(family_model("gfx1031"), Some("rdna2"));
        assert_eq!(family_model("gfx90a"), Some("cdna2"));
        assert_eq!(family_model("gfx942"), Some("cdna3"));
        assert_eq!(family_model("gfx940"), Some("cdna3"));
        assert_eq!(family_model("gfx906"), Some("gcn"));
        assert_eq!(alias_target("gcn3"), Some("gfx803"));
        assert!(crate::ArchSpec::builtin(&parsed.default_model).is_ok());
    }
}
