//! The engine worker's wasm binary: see [`burn_extension_playground::worker`].

fn main() {
    burn_extension_playground::worker::start();
}
