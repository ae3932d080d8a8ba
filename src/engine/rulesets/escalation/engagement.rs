//! What moving away from engagement costs (E-37, E-GAP-11): the Disengage
//! difficulty. Who is engaged, who makes opportunity attacks and who may
//! Intercept are read from the battle in `movement.rs` (`engaged`, `provoked_by`,
//! `interceptors`), where the previews and the AI read them too.

/// The Disengage difficulty against `enemies` enemies: `base` + 1 for each after
/// the first (E-37).
pub fn disengage_difficulty(base: i32, enemies: usize) -> i32 {
    base + enemies.saturating_sub(1) as i32
}
