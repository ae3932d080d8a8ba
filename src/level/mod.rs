//! RON levels: the schema, loading with `file:line:col` errors, semantic checks and
//! atomic saving.

pub mod icons;
pub mod load;
pub mod schema;
pub mod validate;

pub use load::{Problem, load_file, load_str, save_atomic, to_ron_string, under_ruleset};
pub use schema::Level;
