//! Schema values built from constant RON skeletons: building them through serde
//! rather than struct literals keeps the editor compiling, and correct, when the
//! schema gains optional fields. Shared by the document ([`super::doc`]) and the
//! template library ([`super::templates`]).

use serde::de::DeserializeOwned;

use crate::engine::board::Cell;
use crate::level::schema::UnitDef;

/// Parses a constant skeleton of a schema type (a mistake in one is a bug here, so
/// it panics).
pub(crate) fn skeleton<T: DeserializeOwned>(text: &'static str) -> T {
    ron::from_str(text).unwrap_or_else(|e| panic!("editor skeleton `{text}` must parse: {e}"))
}

/// A unit with just a name, a side and a cell (every optional field at its default).
pub(crate) fn bare_unit(name: &str, side: &str, cell: Cell) -> UnitDef {
    let mut unit: UnitDef = skeleton(r#"(name: "", side: "", pos: (0, 0))"#);
    unit.name = name.to_string();
    unit.side = side.to_string();
    unit.pos = (cell.x, cell.y);
    unit
}
