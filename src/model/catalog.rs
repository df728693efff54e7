//! The declaration catalog: every way the playground declares its ops, one line each.
//!
//! In the spirit of burn-backend-extension's own `catalog.rs`, this is the single list that
//! everything about a declaration variant is stamped from:
//! - [`Declaration`], its names in links and tests, its selector list as written;
//! - each op's trait modules (`ops::*`): one real `#[backend_extension(...)]` expansion per line,
//!   with the op's `Autodiff<B, C>` impl where the line lists `Autodiff`, and its dispatch;
//! - the shipped expansions (`src/ops/expanded/{op}__{module}.rs`) and the backend tags the
//!   routing view looks for.
//!
//! Adding a variant is one line below, plus its regenerated expansions
//! (`UPDATE_EXPANSIONS=1 cargo test --test expansion`).

/// Calls `$callback! { { $extra } rows… }` with one row per declaration variant:
/// `Variant module autodiff flex fusion [selectors as written in the attribute];`
///
/// `autodiff` says what the line declares about autodiff: `Absent` (no `Autodiff` selector),
/// `Listed` (the selector and the op's `Autodiff<B, C>` impl), `CfgOff(cfg)` (the selector and
/// the impl both behind that cfg; this crate's `autodiff` feature is never turned on, so the line
/// is declared in the source and compiled out of the build, as when someone forgets to enable the
/// feature), or `CfgOn(cfg)` (the same declaration built with the feature on: stamped in the
/// crate `autodiff-feature-on`, whose `autodiff` feature is on, and re-exported here).
macro_rules! declaration_catalog {
    ($callback:ident ! { $($extra:tt)* }) => {
        $callback! {
            { $($extra)* }
            // variant                   module                          autodiff                      flex   fusion      selectors, as written
            CubeFlex                     cube_flex                       Absent                        true   None        [Cube, Flex];
            CubeFlexAutodiff             cube_flex_autodiff              Listed                        true   None        [Cube, Flex, Autodiff];
            CubeFlexAutodiffCfg          cube_flex_autodiff_cfg          CfgOff(feature = "autodiff")  true   None        [Cube, Flex, Autodiff: cfg(feature = "autodiff")];
            CubeFlexAutodiffCfgOn        cube_flex_autodiff_cfg_on       CfgOn(feature = "autodiff")   true   None        [Cube, Flex, Autodiff: cfg(feature = "autodiff")];
            Cube                         cube                            Absent                        false  None        [Cube];
            CubeAutodiff                 cube_autodiff                   Listed                        false  None        [Cube, Autodiff];
            CubeAutodiffCfg              cube_autodiff_cfg               CfgOff(feature = "autodiff")  false  None        [Cube, Autodiff: cfg(feature = "autodiff")];
            CubeAutodiffCfgOn            cube_autodiff_cfg_on            CfgOn(feature = "autodiff")   false  None        [Cube, Autodiff: cfg(feature = "autodiff")];
            CubeFlexFusion               cube_flex_fusion                Absent                        true   Shape       [Cube, Flex, Fusion];
            CubeFlexAutodiffFusion       cube_flex_autodiff_fusion       Listed                        true   Shape       [Cube, Flex, Autodiff, Fusion];
            CubeFlexAutodiffFusionMeta   cube_flex_autodiff_fusion_meta  Listed                        true   Meta        [Cube, Flex, Autodiff, Fusion];
            CubeFlexAutodiffFusionDefault cube_flex_autodiff_fusion_default Listed                     true   Default     [Cube, Flex, Autodiff, Fusion];
            CubeFlexAutodiffFusionFlat   cube_flex_autodiff_fusion_flat  Listed                        true   WrongShape  [Cube, Flex, Autodiff, Fusion];
        }
    };
}
pub(crate) use declaration_catalog;

use serde::{Deserialize, Serialize};

/// What a declaration says about autodiff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AutodiffDeclared {
    /// No `Autodiff` selector: the declaration most custom ops start with.
    Absent,
    /// The `Autodiff` selector, and an `impl … for Autodiff<B, C>`.
    Listed,
    /// `Autodiff: cfg(feature = "autodiff")`, with the impl behind the same cfg, and the feature
    /// off: declared in the source, compiled out of the build.
    CfgOff,
    /// The same declaration, built with the feature on.
    CfgOn,
}

impl AutodiffDeclared {
    /// Whether the build has the `Autodiff` selector's arms: listed plainly, or behind a cfg
    /// whose feature is on.
    pub fn in_build(self) -> bool {
        matches!(self, AutodiffDeclared::Listed | AutodiffDeclared::CfgOn)
    }

    /// Every choice, in the order the page offers them.
    pub const ALL: [AutodiffDeclared; 4] = [
        AutodiffDeclared::Absent,
        AutodiffDeclared::Listed,
        AutodiffDeclared::CfgOff,
        AutodiffDeclared::CfgOn,
    ];
}

/// The `#[fusion(...)]` form a line puts on the op's method when it lists the `Fusion` selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FusionForm {
    /// No `Fusion` selector.
    None,
    /// `#[fusion(dtype = x, shape = x)]`: the output has the input's dtype and shape.
    Shape,
    /// `#[fusion(meta = …)]`: a function computes the output's spec.
    Meta,
    /// `#[fusion(default)]`: the trait's default body serves `Fusion<B>`.
    Default,
    /// `#[fusion(dtype = x, shape = …)]` with the wrong shape (the input flattened): the
    /// metadata burn's docs warn is never checked against what the backend returns.
    WrongShape,
}

impl FusionForm {
    /// Every form, in the order the page offers them.
    pub const ALL: [FusionForm; 5] = [
        FusionForm::None,
        FusionForm::Shape,
        FusionForm::Meta,
        FusionForm::Default,
        FusionForm::WrongShape,
    ];
}

/// Defines [`Declaration`] from the catalog's rows.
macro_rules! define_declaration {
    ({} $($variant:ident $module:ident $autodiff:ident $(($($gate:tt)*))? $flex:literal $fusion:ident [$($selectors:tt)*];)*) => {
        /// How an op's trait is declared: one line of the catalog, one real expansion of burn's
        /// macro per op. `Cube` (WebGPU) is always listed; `Flex` (the CPU backend) and
        /// `Autodiff` vary.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Declaration {
            $(
                #[doc = concat!("`#[backend_extension(", stringify!($($selectors)*), ")]`")]
                $variant,
            )*
        }

        impl Declaration {
            /// Every declaration, in catalog order.
            pub const ALL: &[Declaration] = &[$(Declaration::$variant),*];

            /// The module of each op file that stamps the trait under this declaration (also
            /// the shipped expansion's file name).
            pub fn module(self) -> &'static str {
                match self {
                    $(Declaration::$variant => stringify!($module),)*
                }
            }

            /// The selector list as written in the attribute, e.g. `Cube, Flex, Autodiff`.
            pub fn selectors(self) -> &'static str {
                // `stringify!` spaces a `:` on both sides; written code has no space before it.
                static WRITTEN: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
                let written = WRITTEN.get_or_init(|| {
                    [$(stringify!($($selectors)*)),*]
                        .iter()
                        .map(|selectors| selectors.replace(" :", ":"))
                        .collect()
                });
                &written[self as usize]
            }

            /// What the declaration says about autodiff.
            pub fn autodiff(self) -> AutodiffDeclared {
                match self {
                    $(Declaration::$variant => AutodiffDeclared::$autodiff,)*
                }
            }

            /// Whether the `Flex` selector is listed.
            pub fn flex(self) -> bool {
                match self {
                    $(Declaration::$variant => $flex,)*
                }
            }

            /// The `#[fusion(...)]` form of the op's method, when `Fusion` is listed.
            pub fn fusion(self) -> FusionForm {
                match self {
                    $(Declaration::$variant => FusionForm::$fusion,)*
                }
            }
        }
    };
}
declaration_catalog!(define_declaration! {});

impl Declaration {
    /// `#[backend_extension(Cube, Flex)]`: the common declaration without `Autodiff`.
    pub const WITHOUT_AUTODIFF: Declaration = Declaration::CubeFlex;
    /// `#[backend_extension(Cube, Flex, Autodiff)]`.
    pub const WITH_AUTODIFF: Declaration = Declaration::CubeFlexAutodiff;

    /// The catalog line with these choices, if there is one.
    pub fn with(autodiff: AutodiffDeclared, flex: bool, fusion: FusionForm) -> Option<Declaration> {
        Declaration::ALL.iter().copied().find(|declaration| {
            declaration.autodiff() == autodiff
                && declaration.flex() == flex
                && declaration.fusion() == fusion
        })
    }

    /// This declaration with `autodiff` instead (and the same other choices), if the catalog has
    /// that line.
    pub fn with_autodiff(self, autodiff: AutodiffDeclared) -> Option<Declaration> {
        Declaration::with(autodiff, self.flex(), self.fusion())
    }

    /// This declaration with or without `Flex` (and the same other choices), if the catalog has
    /// that line.
    pub fn with_flex(self, flex: bool) -> Option<Declaration> {
        Declaration::with(self.autodiff(), flex, self.fusion())
    }

    /// This declaration with the `Fusion` form `fusion` (and the same other choices), if the
    /// catalog has that line.
    pub fn with_fusion(self, fusion: FusionForm) -> Option<Declaration> {
        Declaration::with(self.autodiff(), self.flex(), fusion)
    }

    /// The concrete selectors in the order listed (`Cube`, `Flex`), without `Autodiff` and
    /// `Fusion`.
    pub fn backends(self) -> impl Iterator<Item = &'static str> {
        self.selectors()
            .split(',')
            .map(|selector| selector.split(':').next().unwrap_or("").trim())
            .filter(|selector| *selector != "Autodiff" && *selector != "Fusion")
    }

    /// The number the generated routing gives `selector` (`Cube`, `Flex`): its position among
    /// the concrete selectors, as burn's macro numbers its backend arms. `None` when the
    /// declaration does not list it.
    pub fn backend_tag(self, selector: &str) -> Option<usize> {
        self.backends().position(|listed| listed == selector)
    }
}
