//! The `skirmish` binary: see `skirmish --help`.

fn main() -> std::process::ExitCode {
    skirmish::cli::main()
}
