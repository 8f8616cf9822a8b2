//! The registry of model output schemas.
//!
//! A schema is a released, immutable file under `schemas/`, embedded at compile time and known
//! by a stable key, version, id, name and the SHA-256 of its bytes. `schemas/schemas.lock`
//! lists the same facts and a test keeps the two in step, so an edit to a released file cannot
//! go unnoticed.
//!
//! Some providers' strict modes refuse keywords such as length limits. For them a *transport*
//! schema is derived mechanically from the registered one by dropping every keyword outside the
//! subset strict mode accepts; its hash is recorded too, and the full registered schema is still
//! enforced locally on every response.

use std::sync::LazyLock;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// A registered model output schema with everything needed to send it and to check against it.
pub struct RegisteredSchema {
    /// The stable key of the schema family, e.g. `request_draft`.
    pub key: &'static str,
    /// The version within the family.
    pub version: u32,
    /// The `$id` of the document.
    pub id: &'static str,
    /// The name sent to providers (`response_format.json_schema.name`).
    pub name: &'static str,
    /// The path of the file under `schemas/`.
    pub path: &'static str,
    bytes: &'static [u8],
    sha256: String,
    document: Value,
    transport: Value,
    transport_sha256: String,
    validator: jsonschema::Validator,
}

impl RegisteredSchema {
    fn load(
        key: &'static str,
        version: u32,
        id: &'static str,
        name: &'static str,
        path: &'static str,
        bytes: &'static [u8],
    ) -> RegisteredSchema {
        // The files are embedded and checked by tests, so a failure here is a build defect,
        // not something a user can cause.
        let document: Value = serde_json::from_slice(bytes)
            .unwrap_or_else(|e| panic!("schema {path} is not valid JSON: {e}"));
        let validator = jsonschema::draft202012::new(&document)
            .unwrap_or_else(|e| panic!("schema {path} is not a valid JSON Schema: {e}"));
        let transport = transport_schema(&document);
        let transport_bytes = serde_json::to_vec(&transport).expect("a JSON value serialises");
        RegisteredSchema {
            key,
            version,
            id,
            name,
            path,
            bytes,
            sha256: sha256_hex(bytes),
            document,
            transport,
            transport_sha256: sha256_hex(&transport_bytes),
            validator,
        }
    }

    /// The exact bytes of the released file.
    pub fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The SHA-256 of the file's bytes, in lower-case hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The schema document as registered, with every limit.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The schema derived for providers whose strict mode refuses some keywords.
    pub fn transport(&self) -> &Value {
        &self.transport
    }

    /// The SHA-256 of the transport schema's compact JSON serialisation.
    pub fn transport_sha256(&self) -> &str {
        &self.transport_sha256
    }

    /// Validates an instance against the full registered schema, returning every violation.
    pub fn violations(&self, instance: &Value) -> Vec<SchemaViolation> {
        self.validator
            .iter_errors(instance)
            .map(|error| SchemaViolation {
                path: error.instance_path().to_string(),
                message: error.to_string(),
            })
            .collect()
    }
}

impl std::fmt::Debug for RegisteredSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisteredSchema")
            .field("key", &self.key)
            .field("version", &self.version)
            .field("id", &self.id)
            .field("sha256", &self.sha256)
            .finish_non_exhaustive()
    }
}

/// One place where an instance does not match a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaViolation {
    /// The JSON pointer of the offending value (empty for the root).
    pub path: String,
    /// What the validator says is wrong, in English (for the record, not for the resident).
    pub message: String,
}

static REGISTRY: LazyLock<[RegisteredSchema; 2]> = LazyLock::new(|| {
    [
        RegisteredSchema::load(
            "request_draft",
            1,
            "urn:zayavka:schema:request_draft:v1",
            "request_draft_v1",
            "request_draft/v1.json",
            include_bytes!("../../../schemas/request_draft/v1.json"),
        ),
        // The same shape as v1 with field descriptions that agree with prompt v3 (issue 36):
        // the model reads them together with the prompt.
        RegisteredSchema::load(
            "request_draft",
            2,
            "urn:zayavka:schema:request_draft:v2",
            "request_draft_v2",
            "request_draft/v2.json",
            include_bytes!("../../../schemas/request_draft/v2.json"),
        ),
    ]
});

/// Every registered schema, oldest first.
pub fn registry() -> &'static [RegisteredSchema] {
    &*REGISTRY
}

/// The newest `request_draft` schema. New drafts are written against the current system
/// prompt's own schema (`prompt::request_draft`), which a test holds to be this one.
#[cfg(test)]
pub(crate) fn latest_request_draft() -> &'static RegisteredSchema {
    REGISTRY.last().expect("the registry is not empty")
}

/// A registered schema by key and version, for replaying drafts made with an older one.
pub fn find(key: &str, version: u32) -> Option<&'static RegisteredSchema> {
    registry()
        .iter()
        .find(|schema| schema.key == key && schema.version == version)
}

/// The keywords that providers' strict structured-output modes accept. Anything else is
/// dropped from the transport schema and enforced locally only.
const TRANSPORT_KEYWORDS: [&str; 8] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "description",
    "anyOf",
];

/// Derives the transport schema: the same structure with only [`TRANSPORT_KEYWORDS`] kept.
fn transport_schema(schema: &Value) -> Value {
    let Value::Object(object) = schema else {
        return schema.clone();
    };
    let mut kept = Map::new();
    for (keyword, value) in object {
        if !TRANSPORT_KEYWORDS.contains(&keyword.as_str()) {
            continue;
        }
        let value = match (keyword.as_str(), value) {
            ("properties", Value::Object(properties)) => Value::Object(
                properties
                    .iter()
                    .map(|(name, schema)| (name.clone(), transport_schema(schema)))
                    .collect(),
            ),
            ("items", items) => transport_schema(items),
            ("anyOf", Value::Array(branches)) => {
                Value::Array(branches.iter().map(transport_schema).collect())
            }
            (_, value) => value.clone(),
        };
        kept.insert(keyword.clone(), value);
    }
    Value::Object(kept)
}

/// The SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subset of JSON Schema that OpenAI's strict structured outputs accept, as documented:
    /// the root is an object, every object lists all its properties as required and forbids
    /// additional ones, optional values are expressed as a type union with `null`, and only a
    /// few keywords are understood. Length limits are allowed only where `allow_limits` says so.
    fn strict_mode_findings(schema: &Value, allow_limits: bool) -> Vec<String> {
        const LIMITS: [&str; 4] = ["minLength", "maxLength", "minItems", "maxItems"];
        const ANNOTATIONS: [&str; 3] = ["$schema", "$id", "title"];
        const TYPES: [&str; 7] = [
            "string", "number", "integer", "boolean", "object", "array", "null",
        ];
        let mut findings = Vec::new();
        if schema.get("type") != Some(&Value::String("object".into())) {
            findings.push("the root must be of type object, not a union".to_owned());
        }
        let mut property_count = 0;
        walk(schema, "", 0, &mut |node, path, depth| {
            let Some(object) = node.as_object() else {
                findings.push(format!("{path}: a schema must be an object"));
                return;
            };
            if depth > 5 {
                findings.push(format!("{path}: nested deeper than five levels"));
            }
            for keyword in object.keys() {
                let known = TRANSPORT_KEYWORDS.contains(&keyword.as_str())
                    || (allow_limits && LIMITS.contains(&keyword.as_str()))
                    || (path.is_empty() && ANNOTATIONS.contains(&keyword.as_str()));
                if !known {
                    findings.push(format!("{path}: keyword `{keyword}` is not supported"));
                }
            }
            let types: Vec<&str> = match object.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ if object.contains_key("anyOf") => vec![],
                _ => {
                    findings.push(format!("{path}: every schema needs a type"));
                    vec![]
                }
            };
            for t in &types {
                if !TYPES.contains(t) {
                    findings.push(format!("{path}: unknown type `{t}`"));
                }
            }
            if types.contains(&"object") {
                if object.get("additionalProperties") != Some(&Value::Bool(false)) {
                    findings.push(format!("{path}: additionalProperties must be false"));
                }
                let properties: Vec<&String> = object
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().collect())
                    .unwrap_or_default();
                property_count += properties.len();
                let required: Vec<&str> = object
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut listed = properties.clone();
                listed.sort();
                let mut required_sorted = required.clone();
                required_sorted.sort();
                if listed.iter().map(|s| s.as_str()).collect::<Vec<_>>() != required_sorted {
                    findings.push(format!("{path}: every property must be required"));
                }
            }
            if types.contains(&"array") && !object.contains_key("items") {
                findings.push(format!("{path}: an array needs items"));
            }
        });
        if property_count > 100 {
            findings.push("more than 100 properties in all".to_owned());
        }
        findings
    }

    fn walk(node: &Value, path: &str, depth: usize, visit: &mut dyn FnMut(&Value, &str, usize)) {
        visit(node, path, depth);
        if let Some(properties) = node.get("properties").and_then(Value::as_object) {
            for (name, child) in properties {
                walk(child, &format!("{path}/{name}"), depth + 1, visit);
            }
        }
        if let Some(items) = node.get("items") {
            walk(items, &format!("{path}/items"), depth + 1, visit);
        }
        if let Some(branches) = node.get("anyOf").and_then(Value::as_array) {
            for (i, branch) in branches.iter().enumerate() {
                walk(branch, &format!("{path}/anyOf/{i}"), depth, visit);
            }
        }
    }

    #[test]
    fn registered_schemas_fit_the_strict_subset_with_limits() {
        for schema in registry() {
            assert_eq!(
                strict_mode_findings(schema.document(), true),
                Vec::<String>::new()
            );
        }
    }

    #[test]
    fn transport_schemas_fit_the_strict_subset_without_limits() {
        for schema in registry() {
            assert_eq!(
                strict_mode_findings(schema.transport(), false),
                Vec::<String>::new()
            );
        }
    }

    #[test]
    fn the_lint_catches_what_strict_mode_refuses() {
        let loose = serde_json::json!({
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "x"}, "b": {"type": "object"}},
            "required": ["a"]
        });
        let findings = strict_mode_findings(&loose, true);
        assert!(findings.iter().any(|f| f.contains("additionalProperties")));
        assert!(
            findings
                .iter()
                .any(|f| f.contains("every property must be required"))
        );
        assert!(findings.iter().any(|f| f.contains("`pattern`")));
    }

    #[test]
    fn transport_schema_keeps_structure_and_drops_limits_only() {
        let schema = latest_request_draft();
        let transport = schema.transport();
        assert_eq!(
            transport["properties"]["subject"]["properties"]["evidence"]["items"]["required"],
            serde_json::json!(["source_field", "quote"])
        );
        let text = transport.to_string();
        for dropped in [
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "$schema",
            "$id",
        ] {
            assert!(!text.contains(dropped), "{dropped}");
        }
        assert_ne!(schema.sha256(), schema.transport_sha256());
    }

    #[test]
    fn every_schema_matches_the_lock_file() {
        #[derive(serde::Deserialize)]
        struct Lock {
            schema: Vec<Entry>,
        }
        #[derive(serde::Deserialize)]
        struct Entry {
            key: String,
            version: u32,
            id: String,
            name: String,
            path: String,
            sha256: String,
        }
        let lock: Lock = toml::from_str(include_str!("../../../schemas/schemas.lock")).unwrap();
        assert_eq!(lock.schema.len(), registry().len());
        for (entry, schema) in lock.schema.iter().zip(registry()) {
            assert_eq!(entry.key, schema.key);
            assert_eq!(entry.version, schema.version);
            assert_eq!(entry.id, schema.id);
            assert_eq!(entry.name, schema.name);
            assert_eq!(entry.path, schema.path);
            assert_eq!(
                entry.sha256,
                schema.sha256(),
                "schemas/{} changed after release: add a new version instead",
                entry.path
            );
            assert_eq!(schema.document()["$id"], schema.id);
        }
        // Every file under schemas/ is registered, so none is used without being locked.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas");
        let mut files = Vec::new();
        for family in std::fs::read_dir(&root).unwrap() {
            let family = family.unwrap().path();
            if family.is_dir() {
                for file in std::fs::read_dir(&family).unwrap() {
                    let file = file.unwrap().path();
                    // The lock file names files with `/`, whatever the platform's separator.
                    let relative = file.strip_prefix(&root).unwrap();
                    let parts: Vec<_> = relative
                        .components()
                        .map(|part| part.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    files.push(parts.join("/"));
                }
            }
        }
        files.sort();
        let mut locked: Vec<String> = lock.schema.iter().map(|e| e.path.clone()).collect();
        locked.sort();
        assert_eq!(files, locked);
    }

    #[test]
    fn lookup_by_key_and_version() {
        assert_eq!(find("request_draft", 1).unwrap().name, "request_draft_v1");
        assert_eq!(find("request_draft", 2).unwrap().name, "request_draft_v2");
        assert!(find("request_draft", 3).is_none());
    }

    /// A prompt is evaluated with the schema it was released with, and a stored reply to an
    /// older schema is checked with today's (issue 36): every version has the same shape, only
    /// the descriptions the model reads differ.
    #[test]
    fn every_request_draft_version_has_the_same_shape() {
        fn shape(schema: &Value) -> Value {
            match schema {
                Value::Object(object) => Value::Object(
                    object
                        .iter()
                        .filter(|(key, _)| !matches!(key.as_str(), "description" | "$id"))
                        .map(|(key, value)| (key.clone(), shape(value)))
                        .collect(),
                ),
                Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
                other => other.clone(),
            }
        }
        let first = shape(registry()[0].document());
        for schema in registry() {
            assert_eq!(shape(schema.document()), first, "{}", schema.path);
        }
        assert_eq!(latest_request_draft().version, 2);
    }
}
