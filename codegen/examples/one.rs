fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    match mcpwire_codegen::generate_snapshot(&bytes, "x.json") {
        Ok(s) => print!("{s}"),
        Err(e) => eprintln!("ERR {e}"),
    }
}
