//! Reading and writing level files.
//!
//! [`load_str`] parses with `ron` and then runs [`validate`]; every problem comes
//! back as a [`Problem`] at `file:line:col`. `ron` reports positions only for syntax
//! errors, so semantic problems are placed by a small locator over the source text
//! (it understands RON's structure, strings and comments) that follows each issue's
//! [`PathStep`]s to the exact field, map key or terrain character.
//!
//! [`save_atomic`] never leaves a half-written level: it writes a temporary file in
//! the same directory, syncs it, keeps the previous file as `<name>.bak`, and renames
//! the temporary file over the target.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use ron::extensions::Extensions;
use ron::ser::PrettyConfig;

use super::schema::{Level, UnitDef};
use super::validate::{self, PathStep, Where};
use crate::engine::archetype;
use crate::engine::rulesets::registry;

/// One problem found in a file, with where it is (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file, as given on the command line (empty for in-memory text).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl Problem {
    fn new(file: &str, (line, col): (usize, usize), message: impl Into<String>) -> Self {
        // One problem, one line: `skirmish check` output is read by tools.
        let message: String = message.into();
        let message = message.replace(['\n', '\r'], " ");
        Self {
            file: file.to_string(),
            line,
            col,
            message,
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            escape_name(&self.file),
            self.line,
            self.col,
            self.message
        )
    }
}

/// A file name as it is shown to users: control characters (a newline, a tab, an
/// escape...) are escaped (`\n`, `\t`, `\u{1b}`) so that a `FILE:LINE:COL: message`
/// line stays one line; everything else is kept as it is.
pub fn escape_name(name: &str) -> String {
    if !name.chars().any(char::is_control) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A path as it is shown to users: [`Path::display`] with control characters
/// escaped (see [`escape_name`]).
pub fn shown_path(path: &Path) -> String {
    escape_name(&path.display().to_string())
}

/// The `ron` options levels are read with: standard RON, plus `implicit_some` so
/// `seed: 42` works as well as `seed: Some(42)`.
fn read_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// Parses and validates level text; `file` is only used in the problems' locations.
pub fn load_str(text: &str, file: &str) -> Result<Level, Vec<Problem>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut level: Level = match read_options().from_str(text) {
        Ok(level) => level,
        Err(e) => return Err(vec![ron_problem(file, &e)]),
    };
    realize_within(&mut level, text, file, &[])?;
    Ok(level)
}

/// Realizes the archetype units of a level just parsed from a part of `text` (see
/// [`crate::engine::archetype`]) for its ruleset, then runs [`check_within`]; every
/// problem is reported at its place in `text` (`prefix` leads to the level). A unit
/// that gives an archetype and stats too, or a tier without an archetype, is a
/// problem. [`load_str`] runs this with an empty prefix.
pub fn realize_within(
    level: &mut Level,
    text: &str,
    file: &str,
    prefix: &[PathStep],
) -> Result<(), Vec<Problem>> {
    // A unit written wrong is not realized: its other problems would follow from
    // that one.
    let written = archetype::written_issues(level);
    if !written.is_empty() {
        return Err(locate_issues(written, text, file, prefix));
    }
    let ruleset = registry::get(&level.ruleset);
    let mut issues = archetype::realize_level(level, ruleset);
    if !issues.is_empty() {
        issues.extend(validate::validate(level));
        return Err(locate_issues(issues, text, file, prefix));
    }
    check_within(level, text, file, prefix)
}

/// `level` as played with `--ruleset`: itself without one, else
/// [`under_ruleset`], the reasons it can't be played on one line.
pub fn with_ruleset(level: Level, ruleset: Option<&str>) -> Result<Level, String> {
    let Some(r) = ruleset else {
        return Ok(level);
    };
    under_ruleset(&level, r).map_err(|issues| {
        let reasons: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
        format!(
            "`{}` can't be played under ruleset `{r}`: {}",
            level.name,
            reasons.join("; ")
        )
    })
}

/// Reads a level file to play it, under `ruleset` if one is given (`skirmish play
/// --ruleset`): its problems (`file:line:col`, one a line), or why it can't be
/// played under that ruleset.
pub fn load_for_play(path: &Path, ruleset: Option<&str>) -> Result<Level, String> {
    let level = load_file(path).map_err(|problems| {
        problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    with_ruleset(level, ruleset)
}

/// `level`, loaded for another ruleset: its ruleset set to `ruleset`, its archetype
/// units realized for it, and checked again. The issues say why it can't be played
/// under `ruleset` (a grid the ruleset isn't played on, stats it doesn't read…).
pub fn under_ruleset(level: &Level, ruleset: &str) -> Result<Level, Vec<validate::Issue>> {
    let mut level = level.clone();
    level.ruleset = ruleset.to_string();
    let mut issues = archetype::realize_level(&mut level, registry::get(ruleset));
    issues.extend(validate::validate(&level));
    if issues.is_empty() {
        Ok(level)
    } else {
        Err(issues)
    }
}

/// The problem for a `ron` parse error, at its place, in plain words.
pub fn ron_problem(file: &str, e: &ron::error::SpannedError) -> Problem {
    let at = (e.span.start.line.max(1), e.span.start.col.max(1));
    Problem::new(file, at, describe_ron_error(&e.code))
}

/// Validates a level that was parsed from a part of `text` (e.g. the
/// `level: Inline(...)` of a scenario), reporting each problem at its place in
/// `text`: `prefix` is the path from the top of `text` to the level. With an empty
/// prefix this is the check [`load_str`] runs.
pub fn check_within(
    level: &Level,
    text: &str,
    file: &str,
    prefix: &[PathStep],
) -> Result<(), Vec<Problem>> {
    let issues = validate::validate(level);
    if issues.is_empty() {
        return Ok(());
    }
    Err(locate_issues(issues, text, file, prefix))
}

/// The problems of `issues` at their places in `text` (`prefix` leads to the
/// level), sorted by place.
fn locate_issues(
    issues: Vec<validate::Issue>,
    text: &str,
    file: &str,
    prefix: &[PathStep],
) -> Vec<Problem> {
    let tree = cst::parse(text);
    let offsets: Vec<Option<usize>> = issues
        .iter()
        .map(|issue| {
            let mut path = prefix.to_vec();
            path.extend(issue.at.path());
            tree.as_ref().and_then(|t| t.locate(&path))
        })
        .collect();
    let places = line_cols(text, &offsets);
    let mut problems: Vec<Problem> = issues
        .into_iter()
        .zip(places)
        .map(|(issue, at)| Problem::new(file, at.unwrap_or((1, 1)), issue.message))
        .collect();
    problems.sort_by_key(|p| (p.line, p.col));
    problems
}

/// Reads a text file. A file that cannot be read, or is not UTF-8 text, is a problem:
/// at `1:1`, or at the line and column of the first byte that is not UTF-8.
pub fn read_text(path: &Path) -> Result<String, Problem> {
    let file = path.display().to_string();
    let bytes =
        fs::read(path).map_err(|e| Problem::new(&file, (1, 1), format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let valid = e.utf8_error().valid_up_to();
        // The part before the first bad byte is UTF-8 by definition.
        let before = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let at = line_col(before, before.len()).unwrap_or((1, 1));
        Problem::new(
            &file,
            at,
            format!(
                "cannot read: not UTF-8 text (byte 0x{:02X} here); expected a text file \
                 saved as UTF-8",
                bytes[valid]
            ),
        )
    })
}

/// Reads, parses and validates a level file.
pub fn load_file(path: &Path) -> Result<Level, Vec<Problem>> {
    let file = path.display().to_string();
    let text = read_text(path).map_err(|p| vec![p])?;
    load_str(&text, &file)
}

/// The 1-based `(line, column)` of a place in level text, following the same rules
/// as the problems [`load_str`] reports; `None` if the text does not have that place
/// (or is not well-formed RON).
pub fn locate(text: &str, at: &Where) -> Option<(usize, usize)> {
    locate_all(text, std::slice::from_ref(at)).pop().flatten()
}

/// [`locate`] for many places at once, in time linear in the text (plus sorting the
/// places): the text is parsed once and scanned once.
pub fn locate_all(text: &str, places: &[Where]) -> Vec<Option<(usize, usize)>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(tree) = cst::parse(text) else {
        return vec![None; places.len()];
    };
    let offsets: Vec<Option<usize>> = places.iter().map(|w| tree.locate(&w.path())).collect();
    line_cols(text, &offsets)
}

/// The 1-based `(line, column)` of the place `path` leads to in RON text (any
/// document, e.g. a scenario: `[Field("commands"), Index(2), Field("target")]`),
/// by the rules of [`locate`]; `None` if the text is not RON this can follow.
pub fn locate_path(text: &str, path: &[PathStep]) -> Option<(usize, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let offset = cst::parse(text)?.locate(path);
    line_cols(text, &[offset]).pop().flatten()
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> Option<(usize, usize)> {
    line_cols(text, &[Some(offset)]).pop().flatten()
}

/// 1-based lines and columns (in characters) of byte offsets, in one pass over the
/// text: `None` for a missing offset or one that is not at a character of `text`
/// (or its end).
fn line_cols(text: &str, offsets: &[Option<usize>]) -> Vec<Option<(usize, usize)>> {
    let mut order: Vec<(usize, usize)> = offsets
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.map(|o| (o, i)))
        .collect();
    order.sort_unstable();
    let mut out = vec![None; offsets.len()];
    let (mut pos, mut line, mut col) = (0, 1, 1);
    for (offset, i) in order {
        if offset > text.len() || !text.is_char_boundary(offset) {
            continue;
        }
        for c in text[pos..offset].chars() {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        pos = offset;
        out[i] = Some((line, col));
    }
    out
}

/// A friendlier message for a `ron` error: what was wrong and what was expected.
fn describe_ron_error(code: &ron::Error) -> String {
    use ron::Error as E;
    fn what(outer: &Option<String>) -> String {
        match outer.as_deref() {
            Some("Level") => "the level".into(),
            Some("SideDef") => "a side".into(),
            Some("UnitDef") => "a unit".into(),
            Some("PowerDef") => "a power".into(),
            Some("EffectDef") => "an on_hit effect".into(),
            Some("ItemDef") => "an item".into(),
            Some("Victory") => "victory".into(),
            Some("Scenario") => "the scenario".into(),
            Some("ScriptCommand") => "a command".into(),
            Some("LevelRef") => "`level`".into(),
            Some("DiceSpec") => "`dice`".into(),
            Some(other) => format!("`{other}`"),
            None => "this struct".into(),
        }
    }
    fn list(names: &[&str]) -> String {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
    match code {
        E::MissingStructField { field, outer } => {
            format!("missing field `{field}` in {}; it is required", what(outer))
        }
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => format!(
            "unknown field `{found}` in {}; expected one of: {}",
            what(outer),
            list(expected)
        ),
        E::DuplicateStructField { field, outer } => {
            format!(
                "field `{field}` given twice in {}; expected it once",
                what(outer)
            )
        }
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => {
            let of = match outer.as_deref() {
                Some("ScriptCommand") => " for a command".into(),
                Some("LevelRef") => " for `level`".into(),
                Some("DiceSpec") => " for `dice`".into(),
                Some(o) => format!(" for {o}"),
                None => String::new(),
            };
            format!(
                "unknown variant `{found}`{of}; expected one of: {}",
                list(expected)
            )
        }
        E::ExpectedComma => {
            "syntax error: expected `,` between items (or a closing bracket)".into()
        }
        E::Eof => "syntax error: unexpected end of file; expected the level to go on \
                   (an unclosed bracket or string?)"
            .into(),
        E::TrailingCharacters => {
            "syntax error: unexpected text after the end of the level; expected nothing more".into()
        }
        E::UnclosedBlockComment => "syntax error: unclosed `/*` comment; expected `*/`".into(),
        E::IntegerOutOfBounds => {
            "number out of range for this field (negative or too large?)".into()
        }
        E::Message(m) => m.clone(),
        E::ExceededRecursionLimit => format!(
            "nested too deeply (more than {} levels of brackets)",
            read_options().recursion_limit.unwrap_or(128)
        ),
        other => {
            let syntax = matches!(
                other,
                E::UnexpectedChar(_)
                    | E::ExpectedArrayEnd
                    | E::ExpectedMapEnd
                    | E::ExpectedMapColon
                    | E::ExpectedStructLikeEnd
                    | E::ExpectedOptionEnd
                    | E::ExpectedStringEnd
                    | E::ExpectedAttributeEnd
                    | E::InvalidEscape(_)
            );
            let text = other.to_string();
            let mut chars = text.chars();
            let lowered: String = match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            };
            if syntax {
                format!("syntax error: {lowered}")
            } else {
                lowered
            }
        }
    }
}

/// The level as readable, diff-friendly RON (stable field order, terrain as rows).
///
/// Fields come in the schema's order. The level, its lists and each unit are
/// spread over lines, one terrain row, side, unit field, power, item or rules entry
/// per line; small values (a side, a unit's stats, a power) stay on one line. The
/// text parses back to an equal level. In the practically impossible case that
/// serializing fails, the text is a RON comment saying so, which does not load;
/// [`save_atomic`] refuses to write it.
pub fn to_ron_string(level: &Level) -> String {
    try_to_ron_string(level).unwrap_or_else(|e| format!("// cannot write this level: {e}\n"))
}

/// Like [`to_ron_string`], but returns the serializer's error if there is one.
pub fn try_to_ron_string(level: &Level) -> Result<String, ron::Error> {
    // Archetype units as the file writes them (by archetype, without the stats
    // their ruleset gives them).
    let level = &archetype::as_written(level, registry::get(&level.ruleset));
    let text = layout(level)?;
    // The hand-made layout must read back as the same level; if it ever does not,
    // fall back to ron's own pretty printer.
    if read_options()
        .from_str::<Level>(&text)
        .is_ok_and(|back| back == *level)
    {
        return Ok(text);
    }
    let config = PrettyConfig::new()
        .depth_limit(3)
        .new_line("\n")
        .struct_names(false);
    let mut text = ron::ser::to_string_pretty(level, config)?;
    text.push('\n');
    Ok(text)
}

/// One value as one line of RON: `(name: "Bow", range: 8, ...)`.
fn compact<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, ron::Error> {
    let config = PrettyConfig::new().depth_limit(0).struct_names(false);
    ron::ser::to_string_pretty(value, config)
}

/// Lines of RON at an indentation.
#[derive(Default)]
struct Lines {
    text: String,
    indent: usize,
}

impl Lines {
    fn line(&mut self, line: &str) {
        for _ in 0..self.indent {
            self.text.push_str("    ");
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    fn open(&mut self, line: &str) {
        self.line(line);
        self.indent += 1;
    }

    fn close(&mut self, line: &str) {
        self.indent = self.indent.saturating_sub(1);
        self.line(line);
    }

    fn field<T: serde::Serialize + ?Sized>(&mut self, key: &str, value: &T) -> ron::Result<()> {
        self.line(&format!("{key}: {},", compact(value)?));
        Ok(())
    }

    /// `key: [` one compact item per line `],` (or `key: [],`).
    fn list<T: serde::Serialize>(&mut self, key: &str, items: &[T]) -> ron::Result<()> {
        if items.is_empty() {
            self.line(&format!("{key}: [],"));
            return Ok(());
        }
        self.open(&format!("{key}: ["));
        for item in items {
            self.line(&format!("{},", compact(item)?));
        }
        self.close("],");
        Ok(())
    }
}

/// The hand-made layout of [`to_ron_string`]. Destructuring every struct without
/// `..` makes a new schema field a compile error here rather than a silently lost
/// value.
fn layout(level: &Level) -> ron::Result<String> {
    let Level {
        name,
        version,
        ruleset,
        grid,
        size,
        terrain,
        sides,
        units,
        rules,
        victory,
        seed,
    } = level;
    let mut w = Lines::default();
    w.open("(");
    w.field("name", name)?;
    w.field("version", version)?;
    w.field("ruleset", ruleset)?;
    w.field("grid", grid)?;
    w.field("size", size)?;
    if !terrain.is_empty() {
        w.list("terrain", terrain)?;
    }
    w.list("sides", sides)?;
    if units.is_empty() {
        w.line("units: [],");
    } else {
        w.open("units: [");
        for unit in units {
            let UnitDef {
                name,
                side,
                pos,
                archetype,
                tier,
                stats,
                powers,
                movement,
                items,
                size,
                skills,
                weapons,
                armor,
                traits,
                icon,
            } = unit;
            w.open("(");
            w.field("name", name)?;
            w.field("side", side)?;
            w.field("pos", pos)?;
            if let Some(archetype) = archetype {
                w.field("archetype", archetype)?;
            }
            if let Some(tier) = tier {
                w.field("tier", tier)?;
            }
            if archetype.is_none() || !stats.is_empty() {
                w.field("stats", stats)?;
            }
            if !powers.is_empty() {
                w.list("powers", powers)?;
            }
            if !movement.is_empty() {
                w.field("movement", movement)?;
            }
            if !items.is_empty() {
                w.list("items", items)?;
            }
            if *size != Default::default() {
                w.field("size", size)?;
            }
            if !skills.is_empty() {
                w.field("skills", skills)?;
            }
            if !weapons.is_empty() {
                w.list("weapons", weapons)?;
            }
            if *armor != 0 {
                w.field("armor", armor)?;
            }
            if !traits.is_empty() {
                w.field("traits", traits)?;
            }
            if let Some(icon) = icon {
                w.field("icon", icon)?;
            }
            w.close("),");
        }
        w.close("],");
    }
    if !rules.is_empty() {
        w.open("rules: {");
        for (key, value) in rules {
            w.line(&format!("{}: {},", compact(key)?, compact(value)?));
        }
        w.close("},");
    }
    w.field("victory", victory)?;
    if seed.is_some() {
        w.field("seed", seed)?;
    }
    w.close(")");
    Ok(w.text)
}

/// Writes `level` to `path` atomically: a temporary file in the same directory,
/// synced, then renamed over the old file, whose previous version is kept as
/// `<name>.bak`.
pub fn save_atomic(path: &Path, level: &Level) -> std::io::Result<()> {
    let text = try_to_ron_string(level).map_err(io::Error::other)?;
    let temp = write_temp(path, &text)?;
    commit_temp(&temp, path)
}

/// The `.bak` path kept by [`save_atomic`]: the file name with `.bak` appended.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

/// First half of [`save_atomic`]: writes `text` to a new, uniquely named hidden
/// temporary file next to `path` (`.<name>.tmp-…`), synced to disk, and returns its
/// path. Until [`commit_temp`] runs, `path` is untouched; a crash in between leaves
/// only a stray temporary file.
pub fn write_temp(path: &Path, text: &str) -> io::Result<PathBuf> {
    let temp = create_unique(path, "tmp", |file| {
        file.write_all(text.as_bytes())?;
        if let Ok(meta) = fs::metadata(path) {
            // Keep the old file's permissions (best effort).
            let _ = file.set_permissions(meta.permissions());
        }
        file.sync_all()
    })?;
    Ok(temp)
}

/// Second half of [`save_atomic`]: keeps the current `path` (if any) as
/// `<name>.bak`, then renames `temp` over `path` and syncs the directory. On error
/// the temporary file is removed and `path` is left as it was.
pub fn commit_temp(temp: &Path, path: &Path) -> io::Result<()> {
    let result = (|| {
        if fs::metadata(path).is_ok_and(|m| m.is_file()) {
            keep_backup(path)?;
        }
        fs::rename(temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(temp);
    }
    result?;
    sync_dir(&parent_dir(path));
    Ok(())
}

/// Replaces `<name>.bak` with the current contents of `path`, atomically too: a hard
/// link (or, where links are not supported, a synced copy) under a temporary name
/// is renamed over the old backup.
fn keep_backup(path: &Path) -> io::Result<()> {
    let backup = backup_path(path);
    let staged = match create_unique_name(path, "bak-tmp", |name| fs::hard_link(path, name)) {
        Ok(staged) => staged,
        Err(_) => create_unique(path, "bak-tmp", |file| {
            let mut old = fs::File::open(path)?;
            io::copy(&mut old, file)?;
            file.sync_all()
        })?,
    };
    fs::rename(&staged, &backup).inspect_err(|_| {
        let _ = fs::remove_file(&staged);
    })
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A fresh hidden name next to `path`: `.<name>.<tag>-<pid>-<nanos>-<n>`.
fn unique_name(path: &Path, tag: &str) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{}` is not a file path", path.display()),
        )
    })?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let pid = std::process::id();
    Ok(parent_dir(path).join(format!(
        ".{}.{tag}-{pid}-{nanos}-{n}",
        name.to_string_lossy()
    )))
}

/// Runs `make` on fresh names until one does not exist yet; returns that name.
fn create_unique_name(
    path: &Path,
    tag: &str,
    mut make: impl FnMut(&Path) -> io::Result<()>,
) -> io::Result<PathBuf> {
    for _ in 0..64 {
        let name = unique_name(path, tag)?;
        match make(&name) {
            Ok(()) => return Ok(name),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

/// Creates a new file under a fresh name next to `path` and fills it with `fill`;
/// on failure the file is removed.
fn create_unique(
    path: &Path,
    tag: &str,
    mut fill: impl FnMut(&mut fs::File) -> io::Result<()>,
) -> io::Result<PathBuf> {
    create_unique_name(path, tag, |name| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(name)?;
        fill(&mut file).inspect_err(|_| {
            let _ = fs::remove_file(name);
        })
    })
}

/// Makes a rename in `dir` durable (best effort; only possible on Unix).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// A minimal RON syntax tree with byte offsets, only for finding places in the
/// source. It is run on text `ron` has already accepted; anything it does not
/// understand makes it give up (and problems fall back to line 1, column 1).
mod cst {
    use std::collections::HashMap;

    use super::PathStep;

    pub(super) struct Node {
        /// Byte offset where the value starts (for `Name(...)`, at the name).
        start: usize,
        kind: Kind,
    }

    enum Kind {
        /// Number, identifier, boolean, char literal...
        Atom,
        /// A string literal; `content` is the byte range between the quotes.
        Str { content: (usize, usize), raw: bool },
        /// `(...)` or `Name(...)`: named fields (key offset, key, value) and/or
        /// positional items.
        Paren {
            fields: Vec<(usize, String, Node)>,
            items: Vec<Node>,
        },
        /// `[...]`
        List(Vec<Node>),
        /// `{...}`: the entries, and the index of the first entry with each key
        /// (string keys decoded, identifier and number keys as written).
        Map(Vec<(Node, Node)>, HashMap<String, usize>),
    }

    /// The tree of a whole document, and its text.
    pub(super) struct Tree<'a> {
        text: &'a str,
        root: Node,
    }

    /// Parses `text`, or `None` if it is not RON this parser understands.
    pub(super) fn parse(text: &str) -> Option<Tree<'_>> {
        let mut p = Parser {
            b: text.as_bytes(),
            pos: 0,
            depth: 0,
        };
        p.skip_trivia()?;
        while p.peek() == Some(b'#') {
            p.attribute()?;
            p.skip_trivia()?;
        }
        let root = p.value()?;
        Some(Tree { text, root })
    }

    impl Tree<'_> {
        /// The byte offset of the place `path` leads to. A path that cannot be
        /// followed to the end (e.g. a field left out) stops at the last place
        /// reached; a missing field points at the struct's `name:` if it has one.
        pub(super) fn locate(&self, path: &[PathStep]) -> Option<usize> {
            let mut node = &self.root;
            let mut anchor = node.start;
            for step in path {
                let field = match step {
                    PathStep::Field(name) => Some(*name),
                    PathStep::Named(name) => Some(name.as_str()),
                    _ => None,
                };
                match step {
                    PathStep::Field(_) | PathStep::Named(_) => {
                        let name = field.unwrap_or_default();
                        let n = unwrap_newtypes(node);
                        let Kind::Paren { fields, .. } = &n.kind else {
                            return Some(anchor);
                        };
                        match fields.iter().find(|(_, k, _)| k == name) {
                            Some((at, _, value)) => {
                                anchor = *at;
                                node = value;
                            }
                            None => {
                                let name_key = fields.iter().find(|(_, k, _)| k == "name");
                                return Some(name_key.map_or(anchor, |(at, _, _)| *at));
                            }
                        }
                    }
                    PathStep::Index(i) => {
                        let items = match &node.kind {
                            Kind::List(items) | Kind::Paren { items, .. } => items,
                            _ => return Some(anchor),
                        };
                        let Some(item) = items.get(*i) else {
                            return Some(anchor);
                        };
                        anchor = item.start;
                        node = item;
                    }
                    PathStep::Key(key) => {
                        let Kind::Map(entries, index) = &unwrap_newtypes(node).kind else {
                            return Some(anchor);
                        };
                        let Some((k, v)) = index.get(key.as_str()).map(|&i| &entries[i]) else {
                            return Some(anchor);
                        };
                        anchor = k.start;
                        node = v;
                    }
                    PathStep::Char(i) => {
                        return Some(self.char_offset(node, *i).unwrap_or(anchor));
                    }
                }
            }
            Some(anchor)
        }

        /// Byte offset of the `i`-th character of a string literal's value; one past
        /// the end is its closing quote.
        fn char_offset(&self, node: &Node, i: usize) -> Option<usize> {
            let Kind::Str { content, raw } = node.kind else {
                return None;
            };
            let b = self.text.as_bytes();
            let mut p = content.0;
            let mut k = 0;
            while p < content.1 {
                if k == i {
                    return Some(p);
                }
                if !raw && b[p] == b'\\' {
                    p += 1;
                    match b.get(p) {
                        Some(b'u') => {
                            while p < content.1 && b[p] != b'}' {
                                p += 1;
                            }
                            p += 1;
                        }
                        Some(b'x') => p += 3,
                        _ => p += 1,
                    }
                } else {
                    p += utf8_len(b[p]);
                }
                k += 1;
            }
            (k == i).then_some(content.1)
        }
    }

    /// Looks through one-element variants and options, `Some(x)` or `Power((...))`.
    fn unwrap_newtypes(mut node: &Node) -> &Node {
        while let Kind::Paren { fields, items } = &node.kind {
            match (fields.is_empty(), items.as_slice()) {
                (true, [only]) => node = only,
                _ => break,
            }
        }
        node
    }

    fn utf8_len(first: u8) -> usize {
        match first {
            0xF0..=0xFF => 4,
            0xE0..=0xEF => 3,
            0xC0..=0xDF => 2,
            _ => 1,
        }
    }

    fn is_ident_start(c: u8) -> bool {
        c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
    }

    fn is_ident_char(c: u8) -> bool {
        c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
    }

    struct Parser<'a> {
        b: &'a [u8],
        pos: usize,
        depth: usize,
    }

    impl Parser<'_> {
        fn peek(&self) -> Option<u8> {
            self.b.get(self.pos).copied()
        }

        fn peek_at(&self, ahead: usize) -> Option<u8> {
            self.b.get(self.pos + ahead).copied()
        }

        fn eat(&mut self, c: u8) -> Option<()> {
            (self.peek() == Some(c)).then(|| self.pos += 1)
        }

        /// Skips whitespace, `// line` and (nested) `/* block */` comments.
        fn skip_trivia(&mut self) -> Option<()> {
            loop {
                match (self.peek(), self.peek_at(1)) {
                    (Some(c), _) if c.is_ascii_whitespace() => self.pos += 1,
                    (Some(b'/'), Some(b'/')) => {
                        while self.peek().is_some_and(|c| c != b'\n') {
                            self.pos += 1;
                        }
                    }
                    (Some(b'/'), Some(b'*')) => {
                        self.pos += 2;
                        let mut depth = 1;
                        while depth > 0 {
                            match (self.peek()?, self.peek_at(1)) {
                                (b'/', Some(b'*')) => {
                                    depth += 1;
                                    self.pos += 2;
                                }
                                (b'*', Some(b'/')) => {
                                    depth -= 1;
                                    self.pos += 2;
                                }
                                _ => self.pos += 1,
                            }
                        }
                    }
                    _ => return Some(()),
                }
            }
        }

        /// `#![enable(...)]`
        fn attribute(&mut self) -> Option<()> {
            self.eat(b'#')?;
            self.skip_trivia()?;
            self.eat(b'!')?;
            self.skip_trivia()?;
            self.eat(b'[')?;
            let mut depth = 1;
            while depth > 0 {
                match self.peek()? {
                    b'[' => depth += 1,
                    b']' => depth -= 1,
                    _ => {}
                }
                self.pos += 1;
            }
            Some(())
        }

        fn value(&mut self) -> Option<Node> {
            self.skip_trivia()?;
            self.depth += 1;
            if self.depth > 512 {
                return None;
            }
            let start = self.pos;
            let node = match (self.peek()?, self.peek_at(1)) {
                (b'(', _) => self.paren(start)?,
                (b'[', _) => Node {
                    start,
                    kind: Kind::List(self.seq(b'[', b']')?),
                },
                (b'{', _) => self.map(start)?,
                (b'"', _) => self.string(start, 0)?,
                (b'\'', _) => self.char_lit(start)?,
                (b'b', Some(b'"')) => self.string(start, 1)?,
                (b'b', Some(b'\'')) => {
                    self.pos += 1;
                    self.char_lit(start)?
                }
                (b'b', Some(b'r')) if self.raw_string_follows(2) => self.raw_string(start, 2)?,
                (b'r', _) if self.raw_string_follows(1) => self.raw_string(start, 1)?,
                (c, _) if is_ident_start(c) => {
                    self.ident()?;
                    self.skip_trivia()?;
                    if self.peek() == Some(b'(') {
                        self.paren(start)?
                    } else {
                        Node {
                            start,
                            kind: Kind::Atom,
                        }
                    }
                }
                _ => {
                    // Numbers (with sign, base prefix, exponent, suffix) and ranges.
                    while let Some(c) = self.peek() {
                        let sign_in_exponent = (c == b'+' || c == b'-') && self.pos > start;
                        let ok = c.is_ascii_alphanumeric()
                            || matches!(c, b'_' | b'.')
                            || (self.pos == start && (c == b'+' || c == b'-'))
                            || (sign_in_exponent && matches!(self.b[self.pos - 1], b'e' | b'E'));
                        if !ok {
                            break;
                        }
                        self.pos += 1;
                    }
                    if self.pos == start {
                        return None;
                    }
                    Node {
                        start,
                        kind: Kind::Atom,
                    }
                }
            };
            self.depth -= 1;
            Some(node)
        }

        /// An identifier, possibly raw (`r#name`); returns it.
        fn ident(&mut self) -> Option<String> {
            if self.peek() == Some(b'r') && self.peek_at(1) == Some(b'#') {
                self.pos += 2;
            }
            let start = self.pos;
            if !self.peek().is_some_and(is_ident_start) {
                return None;
            }
            while self.peek().is_some_and(is_ident_char) {
                self.pos += 1;
            }
            std::str::from_utf8(&self.b[start..self.pos])
                .ok()
                .map(str::to_string)
        }

        /// `(` fields and items `)`; `start` is where the name (if any) began.
        fn paren(&mut self, start: usize) -> Option<Node> {
            self.eat(b'(')?;
            let mut fields = Vec::new();
            let mut items = Vec::new();
            loop {
                self.skip_trivia()?;
                if self.peek()? == b')' {
                    self.pos += 1;
                    break;
                }
                let save = self.pos;
                let mut field = None;
                if self.peek().is_some_and(is_ident_start)
                    && let Some(key) = self.ident()
                {
                    self.skip_trivia()?;
                    if self.peek() == Some(b':') && self.peek_at(1) != Some(b':') {
                        self.pos += 1;
                        field = Some((save, key));
                    }
                }
                match field {
                    Some((at, key)) => {
                        let value = self.value()?;
                        fields.push((at, key, value));
                    }
                    None => {
                        self.pos = save;
                        items.push(self.value()?);
                    }
                }
                self.skip_trivia()?;
                match self.peek()? {
                    b',' => self.pos += 1,
                    b')' => {}
                    _ => return None,
                }
            }
            Some(Node {
                start,
                kind: Kind::Paren { fields, items },
            })
        }

        fn seq(&mut self, open: u8, close: u8) -> Option<Vec<Node>> {
            self.eat(open)?;
            let mut items = Vec::new();
            loop {
                self.skip_trivia()?;
                if self.peek()? == close {
                    self.pos += 1;
                    return Some(items);
                }
                items.push(self.value()?);
                self.skip_trivia()?;
                match self.peek()? {
                    b',' => self.pos += 1,
                    c if c == close => {}
                    _ => return None,
                }
            }
        }

        fn map(&mut self, start: usize) -> Option<Node> {
            self.eat(b'{')?;
            let mut entries = Vec::new();
            let mut index = HashMap::new();
            loop {
                self.skip_trivia()?;
                if self.peek()? == b'}' {
                    self.pos += 1;
                    break;
                }
                let key = self.value()?;
                let key_text = self.key_text(&key);
                self.skip_trivia()?;
                self.eat(b':')?;
                let value = self.value()?;
                if let Some(text) = key_text {
                    index.entry(text).or_insert(entries.len());
                }
                entries.push((key, value));
                self.skip_trivia()?;
                match self.peek()? {
                    b',' => self.pos += 1,
                    b'}' => {}
                    _ => return None,
                }
            }
            Some(Node {
                start,
                kind: Kind::Map(entries, index),
            })
        }

        /// The key a map key node just parsed (ending at `pos`) stands for: a string
        /// literal decoded by `ron` (escapes, raw strings) exactly, an identifier or a
        /// number as written.
        fn key_text(&self, key: &Node) -> Option<String> {
            let literal = std::str::from_utf8(self.b.get(key.start..self.pos)?).ok()?;
            match key.kind {
                Kind::Str { .. } => ron::from_str::<String>(literal).ok(),
                Kind::Atom => {
                    let end = literal.bytes().position(|c| !is_ident_char(c));
                    Some(literal[..end.unwrap_or(literal.len())].to_string())
                }
                _ => None,
            }
        }

        /// `"..."` with escapes; `prefix` bytes (`b`) come before the quote.
        fn string(&mut self, start: usize, prefix: usize) -> Option<Node> {
            self.pos += prefix;
            self.eat(b'"')?;
            let content_start = self.pos;
            loop {
                match self.peek()? {
                    b'\\' => self.pos += 2,
                    b'"' => break,
                    _ => self.pos += 1,
                }
            }
            let content = (content_start, self.pos);
            self.pos += 1;
            Some(Node {
                start,
                kind: Kind::Str {
                    content,
                    raw: false,
                },
            })
        }

        /// Whether `r`, `r#...` followed by `"` starts at `pos + skip`.
        fn raw_string_follows(&self, skip: usize) -> bool {
            let mut i = self.pos + skip;
            while self.b.get(i) == Some(&b'#') {
                i += 1;
            }
            self.b.get(i) == Some(&b'"')
        }

        /// `r#"..."#`; `prefix` bytes (`r` or `br`) come before the hashes.
        fn raw_string(&mut self, start: usize, prefix: usize) -> Option<Node> {
            self.pos += prefix;
            let mut hashes = 0;
            while self.peek() == Some(b'#') {
                hashes += 1;
                self.pos += 1;
            }
            self.eat(b'"')?;
            let content_start = self.pos;
            loop {
                if self.peek()? == b'"' && (1..=hashes).all(|k| self.peek_at(k) == Some(b'#')) {
                    break;
                }
                self.pos += 1;
            }
            let content = (content_start, self.pos);
            self.pos += 1 + hashes;
            Some(Node {
                start,
                kind: Kind::Str { content, raw: true },
            })
        }

        /// `'c'` or `'\n'`.
        fn char_lit(&mut self, start: usize) -> Option<Node> {
            self.eat(b'\'')?;
            if self.peek()? == b'\\' {
                self.pos += 2;
                while self.peek()? != b'\'' {
                    self.pos += 1;
                }
            } else {
                self.pos += utf8_len(self.peek()?);
            }
            self.eat(b'\'')?;
            Some(Node {
                start,
                kind: Kind::Atom,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::validate::PowerRef;

    const TEXT: &str = r##"// A level.
#![enable(implicit_some)]
Level( /* a (tricky) comment, with "quotes" */
    name: "Test \"(\" level",
    ruleset: "any",
    grid: Square,
    size: (4, 3),
    terrain: [
        "....",
        r#".#.."#,
        "..~.", // "a comment ["
    ],
    sides: [(name: "A"), (name: "B", controller: Ai(Normal))],
    units: [
        (name: "a", side: "A", pos: (0, 0), stats: {"INT": 1, "AGI": 1}),
        (
            name: "b", // b
            side: "B",
            pos: (3, 2),
            items: [(name: "Bomb", effect: Power((name: "Boom", damage: "2d6")))],
        ),
    ],
    rules: { "speed": 5 },
    seed: Some(3),
)
"##;

    fn at(w: Where) -> Option<(usize, usize)> {
        locate(TEXT, &w)
    }

    #[test]
    fn locator_finds_fields_keys_and_characters() {
        assert_eq!(at(Where::Field("ruleset")), Some((5, 5)));
        assert_eq!(
            at(Where::Unit {
                index: 1,
                field: Some("pos")
            }),
            Some((19, 13))
        );
        assert_eq!(
            at(Where::Stat {
                unit: 0,
                stat: "AGI".into()
            }),
            Some((15, 63))
        );
        assert_eq!(at(Where::TerrainCell { row: 1, col: 1 }), Some((10, 13)));
        assert_eq!(at(Where::TerrainCell { row: 2, col: 4 }), Some((11, 14)));
        assert_eq!(at(Where::Rule("speed".into())), Some((23, 14)));
        assert_eq!(
            at(Where::Side {
                index: 1,
                field: Some("name")
            }),
            Some((13, 27))
        );
        let power = Where::Power {
            unit: 1,
            power: PowerRef::Item(0),
            field: Some("damage"),
        };
        assert_eq!(at(power), Some((20, 65)));
    }

    #[test]
    fn locator_finds_the_nth_trait_of_a_unit_or_a_side_and_a_powers_damage_type() {
        let text = r#"(
    sides: [(name: "A"), (name: "B", traits: ["PCs", /* two */ "Brave"])],
    units: [
        (name: "a", stats: {}),
        (
            name: "b",
            traits: [
                "Fast",
                r"Resist Fire 14+", // a raw string
            ],
            powers: [(name: "Bite"), (name: "Breath", damage_type: "Fire")],
            items: [(name: "Wand", effect: Power((name: "Zap", damage_type: "Cold")))],
        ),
    ],
)"#;
        let at = |w: Where| locate(text, &w);
        assert_eq!(at(Where::SideTrait { side: 1, index: 0 }), Some((2, 47)));
        assert_eq!(at(Where::SideTrait { side: 1, index: 1 }), Some((2, 64)));
        assert_eq!(at(Where::UnitTrait { unit: 1, index: 0 }), Some((8, 17)));
        assert_eq!(at(Where::UnitTrait { unit: 1, index: 1 }), Some((9, 17)));
        let damage_type = |power| Where::Power {
            unit: 1,
            power,
            field: Some("damage_type"),
        };
        assert_eq!(at(damage_type(PowerRef::Listed(1))), Some((11, 55)));
        assert_eq!(at(damage_type(PowerRef::Item(0))), Some((12, 64)));
        // A phrase that is not there falls back to the list, a list left out to the
        // unit's or side's name.
        assert_eq!(at(Where::UnitTrait { unit: 1, index: 2 }), Some((7, 13)));
        assert_eq!(at(Where::UnitTrait { unit: 0, index: 0 }), Some((4, 10)));
        assert_eq!(at(Where::SideTrait { side: 0, index: 0 }), Some((2, 14)));
    }

    #[test]
    fn locator_falls_back_to_the_name_of_a_struct_missing_a_field() {
        assert_eq!(
            at(Where::Unit {
                index: 1,
                field: Some("stats")
            }),
            Some((17, 13))
        );
        assert_eq!(at(Where::Victory(Some("max_rounds"))), Some((4, 5)));
    }

    #[test]
    fn layout_round_trips_every_field() {
        let text = r#"(
            name: "All \"fields\"", version: 1, ruleset: "any", grid: Hex, size: (2, 1),
            sides: [(name: "A", controller: Ai(Random), decisions: Never), (name: "B")],
            units: [
                (name: "a", side: "A", pos: (0, 0), stats: {"INT": -1},
                 powers: [(name: "P", range: 3, ranged: true, damage: "1d4", add_tier: false,
                           on_hit: [(condition: "Slowed", lasts: EndOfRound)])],
                 movement: ["Bound", "Slip"],
                 items: [(name: "H", uses: 2, effect: Heal("1d4")), (name: "C", effect: Cleanse),
                         (name: "Q", effect: Power((name: "Z")))]),
                (name: "b", side: "B", pos: (1, 0)),
            ],
            rules: {"speed": 4, "attack_dice": "3d6", "advantage_dice": [6, 8], "x": (a: 1.5)},
            victory: (max_rounds: Some(9)),
            seed: Some(18446744073709551615),
        )"#;
        let level: Level = read_options().from_str(text).expect("parses");
        let laid_out = layout(&level).expect("serializes");
        let back: Level = read_options().from_str(&laid_out).expect("layout parses");
        assert_eq!(back, level, "{laid_out}");
        assert_eq!(try_to_ron_string(&level).ok(), Some(laid_out));
    }

    #[test]
    fn line_cols_places_offsets_in_any_order_in_one_pass() {
        let text = "ab\né\n\nxyz";
        let got = line_cols(
            text,
            &[Some(9), None, Some(0), Some(5), Some(4), Some(3), Some(6)],
        );
        assert_eq!(
            got,
            vec![
                Some((4, 3)),
                None,
                Some((1, 1)),
                Some((2, 2)),
                None, // inside `é`
                Some((2, 1)),
                Some((3, 1)),
            ]
        );
        assert_eq!(line_cols(text, &[Some(text.len() + 1)]), vec![None]);
    }

    #[test]
    fn map_keys_are_found_by_their_decoded_text() {
        let text = r#"(units: [(stats: {"A": 1, r"B": 2, "\u{43}": 3, "A": 4})])"#;
        let stat = |s: &str| Where::Stat {
            unit: 0,
            stat: s.into(),
        };
        assert_eq!(locate(text, &stat("A")), Some((1, 19)));
        assert_eq!(locate(text, &stat("B")), Some((1, 27)));
        assert_eq!(locate(text, &stat("C")), Some((1, 36)));
    }

    #[test]
    fn file_names_with_control_characters_are_escaped() {
        assert_eq!(escape_name("levels/a b.ron"), "levels/a b.ron");
        assert_eq!(escape_name("a\nb\t\u{1b}é.ron"), "a\\nb\\t\\u{1b}é.ron");
        let p = Problem::new("x\ny.ron", (2, 3), "bad\nthing");
        assert_eq!(p.to_string(), "x\\ny.ron:2:3: bad thing");
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("é\nab", 4), Some((2, 2)));
        assert_eq!(line_col("éa", 2), Some((1, 2)));
    }
}
