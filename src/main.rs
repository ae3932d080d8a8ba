//! The `skirmish` binary: see `skirmish --help`.

/// mimalloc instead of the system allocator: the rules and the AI allocate many
/// small, short-lived vectors (a tenth of `sim`'s time went to glibc's malloc).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    skirmish::cli::main()
}
