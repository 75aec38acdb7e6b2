//! Link options of the `avenir-mcp` binary (the release build on x86-64 Linux only).
//!
//! `link/hot-text.ld` puts the functions that serving a plan on stdio runs (listed by
//! `scripts/hot_text.py` from a profile of that run) together at the start of the code, so that
//! the pages of the binary the process maps stay few: touched code spread over the whole binary
//! maps most of it (the kernel maps file pages around each one touched). A name the build does
//! not have matches nothing; the layout, never the behaviour, depends on the list.
//!
//! `AVENIR_MCP_LINK_MAP=FILE` writes the linker's map there and `AVENIR_MCP_HOT_TEXT=off` leaves
//! the list out: the build `scripts/hot_text.sh` profiles (valgrind counts only `.text` as the
//! binary's code).

fn main() {
    println!("cargo:rerun-if-changed=link/hot-text.ld");
    println!("cargo:rerun-if-env-changed=AVENIR_MCP_LINK_MAP");
    println!("cargo:rerun-if-env-changed=AVENIR_MCP_HOT_TEXT");
    let linux_x86_64 = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    if !(linux_x86_64 && release) {
        return;
    }
    if let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") {
        let script = std::path::Path::new(&dir).join("link/hot-text.ld");
        let off = std::env::var("AVENIR_MCP_HOT_TEXT").as_deref() == Ok("off");
        if script.is_file() && !off {
            println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", script.display());
        }
    }
    if let Ok(map) = std::env::var("AVENIR_MCP_LINK_MAP") {
        println!("cargo:rustc-link-arg-bins=-Wl,-Map={map}");
    }
}
