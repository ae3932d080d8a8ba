//! Semantic checks of a parsed level: the rules `skirmish check` enforces.
