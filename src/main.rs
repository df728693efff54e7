//! The playground page's wasm binary: mounts [`burn_extension_playground::ui::App`].

fn main() {
    burn_extension_playground::ui::mount();
}
