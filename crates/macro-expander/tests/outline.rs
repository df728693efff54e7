//! The outline of an accepted declaration: its traits, selectors as written (with the macro's
//! catalog cfg of each concrete backend) and method stubs; none when the macro said no.

use macro_expander::{MacroVersion, Method, Outline, Selector, TraitOutline};

fn expand(text: &str) -> macro_expander::Expansion {
    macro_expander::expand(text, MacroVersion::V0_22)
}

fn selector(
    name: &str,
    cfg: Option<&str>,
    features: &[&str],
    catalog_cfg: Option<&str>,
) -> Selector {
    Selector {
        name: name.to_owned(),
        cfg: cfg.map(str::to_owned),
        features: features
            .iter()
            .map(|feature| (*feature).to_owned())
            .collect(),
        catalog_cfg: catalog_cfg.map(str::to_owned),
    }
}

#[test]
fn an_accepted_declaration_is_outlined_as_written() {
    let text = "use burn::backend::Backend as B2;\n\
        #[derive(ExtensionType)]\n\
        pub struct Pair<B: Backend> { pub lhs: FloatTensor<B>, pub rhs: FloatTensor<B> }\n\
        #[backend_extension(Cube, Flex: cfg(all(feature = \"cpu\", not(feature = \"gpu\"))), Autodiff: cfg(feature = \"autodiff\"), Fusion)]\n\
        pub trait PairOps: Backend {\n\
            #[fusion(default)]\n\
            fn add_pair(#[extension_type] pair: Pair<Self>) -> FloatTensor<Self> { todo!() }\n\
            #[fusion(dtype = x, shape = x)]\n\
            fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;\n\
        }\n";
    let expansion = expand(text);
    assert_eq!(expansion.errors, vec![]);
    assert_eq!(
        expansion.outline,
        Some(Outline {
            traits: vec![TraitOutline {
                name: "PairOps".to_owned(),
                selectors: vec![
                    selector("Cube", None, &[], Some("cube_backend")),
                    selector(
                        "Flex",
                        Some("cfg (all (feature = \"cpu\" , not (feature = \"gpu\")))"),
                        &["cpu", "gpu"],
                        Some("feature = \"flex\""),
                    ),
                    selector("Autodiff", Some("cfg (feature = \"autodiff\")"), &["autodiff"], None),
                    selector("Fusion", None, &[], None),
                ],
                methods: vec![
                    Method {
                        name: "add_pair".to_owned(),
                        signature: "fn add_pair (# [extension_type] pair : Pair < Self >) -> FloatTensor < Self >".to_owned(),
                        stub: "fn add_pair(pair: Pair<Self>) -> FloatTensor<Self> {\n    todo!()\n}".to_owned(),
                        has_default: true,
                    },
                    Method {
                        name: "scale".to_owned(),
                        signature: "fn scale (x : FloatTensor < Self > , factor : f32) -> FloatTensor < Self >".to_owned(),
                        stub: "fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {\n    todo!()\n}".to_owned(),
                        has_default: false,
                    },
                ],
            }],
            defined: vec!["Pair".to_owned(), "PairOps".to_owned()],
            imported: vec!["B2".to_owned()],
        })
    );
}

#[test]
fn a_rejected_declaration_has_no_outline() {
    let expansion = expand(
        "#[backend_extension(Cuda, Flex)]\npub trait ScaleOps: Backend {\n    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;\n}\n",
    );
    assert_eq!(expansion.errors.len(), 1);
    assert_eq!(expansion.outline, None);
}

#[test]
fn each_version_outlines_with_its_own_catalog() {
    let text = "#[backend_extension(Cube, Flex)]\npub trait ScaleOps: Backend {\n    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;\n}\n";
    let old = macro_expander::expand(text, MacroVersion::V0_22);
    let new = macro_expander::expand(text, MacroVersion::V0_23);
    assert_eq!(
        (old.macro_version.as_str(), new.macro_version.as_str()),
        ("0.22.1", "0.23.0-pre.1")
    );
    assert_eq!(
        old.catalog,
        ["Cube", "Flex", "NdArray", "LibTorch", "Remote", "Capture"]
    );
    assert_eq!(new.catalog, ["Cube", "Flex", "Remote", "Group", "Capture"]);
    let flex = |expansion: &macro_expander::Expansion| {
        expansion.outline.as_ref().unwrap().traits[0].selectors[1]
            .catalog_cfg
            .clone()
    };
    assert_eq!(flex(&old).as_deref(), Some("feature = \"flex\""));
    assert_eq!(flex(&new).as_deref(), Some("feature = \"flex\""));
}
