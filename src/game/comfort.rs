//! Comfort settings: UI scale, animations (off, or their speed), the colour palette
//! (the colour-blind-safe standard one, or a high-contrast one), whether AI turns
//! fast-forward by default and whether the battle shows the threat overlay (also
//! toggled by its key, F3 by default). Their panel (F2) is [`super::comfort_panel`];
//! this module is the data every plugin reads: the settings, the values in use
//! ([`ui_scale`], [`palette`]) and the file.
//!
//! The file is `comfort.ron` in the user's configuration folder
//! (`$SKIRMISH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/skirmish`, else
//! `~/.config/skirmish`). It is written whole to a temporary file and renamed over
//! the old one, so a crash never leaves half a file; a file that does not parse is
//! kept as `comfort.ron.broken` before a new one is written, and the game starts
//! with the defaults and says why.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The colour palette.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Palette {
    /// Okabe–Ito side colours, colour-blind safe.
    #[default]
    Standard,
    /// Saturated side colours far apart in lightness, stronger overlays.
    HighContrast,
}

/// The settings, as saved.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comfort {
    /// Size of the panels and their text (1 = the default), 0.75 to 2.
    pub ui_scale: f32,
    /// Whether units glide, blows lunge and numbers float.
    pub animations: bool,
    /// Pace of the animations (1 = the default), 0.5 to 3.
    pub animation_speed: f32,
    /// The colour palette.
    pub palette: Palette,
    /// AI turns play fast unless X is held (instead of slow unless X is held).
    pub fast_forward: bool,
    /// The battle shades every cell an enemy can attack on its next turn.
    pub threat_overlay: bool,
}

impl Default for Comfort {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            animations: true,
            animation_speed: 1.0,
            palette: Palette::Standard,
            fast_forward: false,
            threat_overlay: false,
        }
    }
}

/// Whether animations play, and how fast: the [`Comfort`] settings as
/// [`super::motion`] reads them (kept in step by [`super::comfort_panel`]).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Animations {
    /// Off: units jump to their cells, nothing floats or fades.
    pub on: bool,
    /// Speed factor (1 = the default pace).
    pub speed: f32,
}

impl Default for Animations {
    fn default() -> Self {
        Self {
            on: true,
            speed: 1.0,
        }
    }
}

/// UI scales the panel steps through.
const SCALES: [f32; 6] = [0.75, 1.0, 1.25, 1.5, 1.75, 2.0];
/// Animation speeds the panel steps through.
const SPEEDS: [f32; 6] = [0.5, 0.75, 1.0, 1.5, 2.0, 3.0];

/// The next value of `list` after `v` in direction `dir` (clamped at the ends).
fn step(list: &[f32], v: f32, dir: i32) -> f32 {
    let i = list
        .iter()
        .position(|x| (x - v).abs() < 1e-3)
        .unwrap_or_else(|| list.iter().filter(|x| **x < v).count().min(list.len() - 1));
    let j = (i as i32 + dir).clamp(0, list.len() as i32 - 1) as usize;
    list[j]
}

/// The rows of the panel, in order.
pub const ROWS: [&str; 6] = [
    "UI scale",
    "Animations",
    "Animation speed",
    "Colour palette",
    "AI turns",
    "Threat overlay",
];

impl Comfort {
    /// The settings with every value brought into its range.
    pub fn clamped(mut self) -> Self {
        if !self.ui_scale.is_finite() {
            self.ui_scale = 1.0;
        }
        if !self.animation_speed.is_finite() {
            self.animation_speed = 1.0;
        }
        self.ui_scale = self.ui_scale.clamp(0.75, 2.0);
        self.animation_speed = self.animation_speed.clamp(0.5, 3.0);
        self
    }

    /// Changes row `row` one step in direction `dir` (±1).
    pub fn change(&mut self, row: usize, dir: i32) {
        match row {
            0 => self.ui_scale = step(&SCALES, self.ui_scale, dir),
            1 => self.animations = !self.animations,
            2 => self.animation_speed = step(&SPEEDS, self.animation_speed, dir),
            3 => {
                self.palette = match self.palette {
                    Palette::Standard => Palette::HighContrast,
                    Palette::HighContrast => Palette::Standard,
                }
            }
            4 => self.fast_forward = !self.fast_forward,
            _ => self.threat_overlay = !self.threat_overlay,
        }
    }

    /// Row `row`'s value in words.
    pub fn value(&self, row: usize) -> String {
        match row {
            0 => format!("{:.0}%", self.ui_scale * 100.0),
            1 => if self.animations { "on" } else { "off" }.into(),
            // Display gives the steps' shortest forms: 0.5x, 0.75x, 1x, 1.5x.
            2 => format!("{}x", self.animation_speed),
            3 => match self.palette {
                Palette::Standard => "standard (colour-blind safe)".into(),
                Palette::HighContrast => "high contrast".into(),
            },
            4 => if self.fast_forward {
                "fast (hold X for the readable pace)"
            } else {
                "readable pace (hold X to fast-forward)"
            }
            .into(),
            _ => if self.threat_overlay {
                "on (F3 in battle toggles it)"
            } else {
                "off (F3 in battle toggles it)"
            }
            .into(),
        }
    }

    /// Reads settings from RON text.
    pub fn parse(text: &str) -> Result<Comfort, String> {
        ron::from_str::<Comfort>(text)
            .map(Comfort::clamped)
            .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))
    }
}

/// The settings file's path.
pub fn path() -> Option<PathBuf> {
    let dir = std::env::var_os("SKIRMISH_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CONFIG_HOME").map(|d| PathBuf::from(d).join("skirmish")))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config/skirmish")))?;
    Some(dir.join("comfort.ron"))
}

/// Loads the settings at `path`: the defaults when there is no file, and an error
/// that says where the file is wrong when it does not parse.
pub fn load(path: &Path) -> Result<Comfort, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Comfort::parse(&text).map_err(|e| format!("{}:{e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Comfort::default()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Saves the settings at `path` atomically (a temporary file renamed over the old
/// one). A file that did not parse (`broken`) is kept as `<path>.broken` first.
pub fn save(path: &Path, comfort: &Comfort, broken: bool) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    if broken && path.exists() {
        std::fs::rename(path, path.with_extension("ron.broken")).map_err(err)?;
    }
    let text = ron::ser::to_string_pretty(comfort, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let tmp = path.with_extension("ron.tmp");
    std::fs::write(
        &tmp,
        format!("// skirmish comfort settings (F2 in the game)\n{text}\n"),
    )
    .map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

/// Whether the high-contrast palette is on, for the colour functions drawing code
/// calls everywhere ([`super::units_view::side_color`], the overlays).
static HIGH_CONTRAST: AtomicBool = AtomicBool::new(false);
/// Bumped at each palette change, so drawings keyed on it redraw.
static PALETTE_GENERATION: AtomicU32 = AtomicU32::new(0);

/// The UI scale in use (f32 bits), for code that converts panel sizes to window
/// pixels ([`super::layout::panels_px`]).
static UI_SCALE: AtomicU32 = AtomicU32::new(0x3f80_0000); // 1.0

/// The UI scale in use (1 = the default).
pub fn ui_scale() -> f32 {
    f32::from_bits(UI_SCALE.load(Ordering::Relaxed))
}

/// The palette in use.
pub fn palette() -> Palette {
    if HIGH_CONTRAST.load(Ordering::Relaxed) {
        Palette::HighContrast
    } else {
        Palette::Standard
    }
}

/// A number that changes whenever the palette does.
pub fn palette_generation() -> u32 {
    PALETTE_GENERATION.load(Ordering::Relaxed)
}

/// Makes `scale` the UI scale [`ui_scale`] reports.
pub fn set_ui_scale(scale: f32) {
    UI_SCALE.store(scale.to_bits(), Ordering::Relaxed);
}

/// Makes `p` the palette [`palette`] reports (bumping [`palette_generation`] when
/// it changes).
pub fn set_palette(p: Palette) {
    let high = p == Palette::HighContrast;
    if HIGH_CONTRAST.swap(high, Ordering::Relaxed) != high {
        PALETTE_GENERATION.fetch_add(1, Ordering::Relaxed);
    }
}

/// The panel's state: open or not, the selected row, and the last problem with the
/// file (shown in the panel).
#[derive(Resource, Default)]
pub struct ComfortPanel {
    /// Whether the panel is up (the screen under it ignores its keys).
    pub open: bool,
    /// The selected row.
    pub row: usize,
    /// Where the file is, or why it couldn't be read or written.
    pub status: String,
    /// The file on disk did not parse (kept aside before the next save).
    pub broken: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_the_file() {
        let dir = std::env::temp_dir().join(format!("skirmish-comfort-{}", std::process::id()));
        let path = dir.join("comfort.ron");
        let mut c = Comfort::default();
        c.change(0, 1);
        c.change(3, 1);
        c.fast_forward = true;
        c.change(5, 1);
        save(&path, &c, false).unwrap();
        assert_eq!(load(&path).unwrap(), c);
        assert_eq!(c.ui_scale, 1.25);
        assert_eq!(c.palette, Palette::HighContrast);
        assert!(c.threat_overlay);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_broken_file_says_where_and_is_kept_aside_on_save() {
        let dir = std::env::temp_dir().join(format!("skirmish-comfort-b-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("comfort.ron");
        std::fs::write(&path, "(ui_scale: \"big\")").unwrap();
        let e = load(&path).unwrap_err();
        assert!(e.contains("comfort.ron:1:"), "{e}");
        save(&path, &Comfort::default(), true).unwrap();
        assert_eq!(
            std::fs::read_to_string(path.with_extension("ron.broken")).unwrap(),
            "(ui_scale: \"big\")"
        );
        assert_eq!(load(&path).unwrap(), Comfort::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn values_step_and_stay_in_range() {
        let mut c = Comfort::default();
        for _ in 0..10 {
            c.change(0, 1);
            c.change(2, -1);
        }
        assert_eq!((c.ui_scale, c.animation_speed), (2.0, 0.5));
        let c = Comfort::parse("(ui_scale: 9.0, animation_speed: -1.0)").unwrap();
        assert_eq!((c.ui_scale, c.animation_speed), (2.0, 0.5));
        // Missing fields take their defaults.
        assert_eq!(Comfort::parse("()").unwrap(), Comfort::default());
    }
}
