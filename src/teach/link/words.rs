//! The link's vocabulary: every value a link can carry, spelled once, both ways.
//!
//! A value is written with [`LinkWord::word`] and read back with [`LinkWord::from_word`], which
//! also takes the older words a value had before it was renamed, so old links keep working. The
//! query's keys and its two kinds of flag ([`ON_OFF`], [`YES_NO`]) are here too: nothing else
//! spells a word of a link.

use crate::model::catalog::FusionForm;
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind};
use crate::model::training::OptimizerChoice;

/// A setting whose values a link spells as words.
pub trait LinkWord: Copy + PartialEq + Sized + 'static {
    /// Every value, in the order the page offers them.
    fn all() -> &'static [Self];

    /// The value's word in links.
    fn word(self) -> &'static str;

    /// Words the value had before, still read.
    fn old_words(self) -> &'static [&'static str] {
        &[]
    }

    /// The value a word names (its current word or an older one).
    fn from_word(word: &str) -> Option<Self> {
        Self::all()
            .iter()
            .copied()
            .find(|value| value.word() == word || value.old_words().contains(&word))
    }
}

impl LinkWord for OpKind {
    fn all() -> &'static [OpKind] {
        &OpKind::ALL
    }

    /// The op's Rust name: `scale`, `leaky_relu`, `shift_ids`.
    fn word(self) -> &'static str {
        self.name()
    }
}

impl LinkWord for AutodiffDeclared {
    fn all() -> &'static [AutodiffDeclared] {
        &AutodiffDeclared::ALL
    }

    /// `no`, `yes` (listed), `cfg_off` (listed behind a cfg, built with its feature off),
    /// `cfg_on` (the same, feature on).
    fn word(self) -> &'static str {
        match self {
            AutodiffDeclared::Absent => "no",
            AutodiffDeclared::Listed => "yes",
            AutodiffDeclared::CfgOff => "cfg_off",
            AutodiffDeclared::CfgOn => "cfg_on",
        }
    }
}

impl LinkWord for FusionForm {
    fn all() -> &'static [FusionForm] {
        &FusionForm::ALL
    }

    /// `no`, `shape`, `meta`, `default`, `wrong_shape`.
    fn word(self) -> &'static str {
        match self {
            FusionForm::None => "no",
            FusionForm::Shape => "shape",
            FusionForm::Meta => "meta",
            FusionForm::Default => "default",
            FusionForm::WrongShape => "wrong_shape",
        }
    }
}

impl LinkWord for Fix {
    fn all() -> &'static [Fix] {
        &Fix::ALL
    }

    /// `none`, `without_autodiff`, `builtin`.
    fn word(self) -> &'static str {
        match self {
            Fix::None => "none",
            Fix::WithoutAutodiff => "without_autodiff",
            Fix::Builtin => "builtin",
        }
    }

    /// `detach`, the word before the fix was named for the call it makes.
    fn old_words(self) -> &'static [&'static str] {
        match self {
            Fix::WithoutAutodiff => &["detach"],
            _ => &[],
        }
    }
}

impl LinkWord for BackendChoice {
    fn all() -> &'static [BackendChoice] {
        &BackendChoice::ALL
    }

    /// `gpu`, `cpu`.
    fn word(self) -> &'static str {
        match self {
            BackendChoice::Gpu => "gpu",
            BackendChoice::Cpu => "cpu",
        }
    }
}

impl LinkWord for OptimizerChoice {
    fn all() -> &'static [OptimizerChoice] {
        &OptimizerChoice::ALL
    }

    /// `sgd`, `adam`.
    fn word(self) -> &'static str {
        match self {
            OptimizerChoice::Sgd => "sgd",
            OptimizerChoice::Adam => "adam",
        }
    }
}

impl LinkWord for Declaration {
    fn all() -> &'static [Declaration] {
        Declaration::ALL
    }

    /// The catalog line's module name: `cube_flex`, `cube_flex_autodiff`, ….
    fn word(self) -> &'static str {
        self.module()
    }
}

/// The two words of a yes/no setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagWords {
    /// The word for true.
    pub yes: &'static str,
    /// The word for false.
    pub no: &'static str,
}

impl FlagWords {
    /// The word for `value`.
    pub fn word(self, value: bool) -> &'static str {
        if value { self.yes } else { self.no }
    }

    /// The value `word` names, if it is one of the two.
    pub fn from_word(self, word: &str) -> Option<bool> {
        if word == self.yes {
            Some(true)
        } else if word == self.no {
            Some(false)
        } else {
            None
        }
    }
}

/// Switches: `grad`, `require_grad`, `fusion`.
pub const ON_OFF: FlagWords = FlagWords {
    yes: "on",
    no: "off",
};

/// Selectors: `declares_flex`.
pub const YES_NO: FlagWords = FlagWords {
    yes: "yes",
    no: "no",
};

/// The `embed` key, written bare (`…&embed`) and read as people write it.
pub fn embed_from_word(word: &str) -> Option<bool> {
    match word {
        "" | "1" | "yes" | "on" => Some(true),
        "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The query keys.
pub mod keys {
    /// The op ([`super::LinkWord`] for `OpKind`).
    pub const OP: &str = "op";
    /// The `Autodiff` selector (`AutodiffDeclared`).
    pub const DECLARES_AUTODIFF: &str = "declares_autodiff";
    /// The `Flex` selector ([`super::YES_NO`]).
    pub const DECLARES_FLEX: &str = "declares_flex";
    /// burn built with its `fusion` feature ([`super::ON_OFF`], written only when on).
    pub const FUSION: &str = "fusion";
    /// The `Fusion` selector and its method's `#[fusion(...)]` form (`FusionForm`); only with
    /// `fusion=on`.
    pub const DECLARES_FUSION: &str = "declares_fusion";
    /// The autodiff device ([`super::ON_OFF`]).
    pub const GRAD: &str = "grad";
    /// `require_grad()` on the input ([`super::ON_OFF`]).
    pub const REQUIRE_GRAD: &str = "require_grad";
    /// The call-site fix (`Fix`).
    pub const FIX: &str = "fix";
    /// The backend (`BackendChoice`).
    pub const BACKEND: &str = "backend";
    /// The tensor text.
    pub const TENSOR: &str = "x";
    /// The scalar parameter text.
    pub const PARAM: &str = "param";
    /// Training: the number of steps, as typed.
    pub const STEPS: &str = "steps";
    /// Training: the learning rate, as typed.
    pub const LEARNING_RATE: &str = "lr";
    /// Training: the optimiser (`OptimizerChoice`).
    pub const OPTIMIZER: &str = "optimizer";
    /// The routing view's "compare with": a declaration's module name (`Declaration`).
    pub const COMPARE: &str = "compare";
    /// The compact page for an iframe; written bare (`…&embed`).
    pub const EMBED: &str = "embed";
    /// The text of "Write your own declaration", as typed.
    pub const EDITOR: &str = "code";
    /// Every key, in the order links are written.
    pub const ALL: [&str; 17] = [
        OP,
        DECLARES_AUTODIFF,
        DECLARES_FLEX,
        FUSION,
        DECLARES_FUSION,
        GRAD,
        REQUIRE_GRAD,
        FIX,
        BACKEND,
        TENSOR,
        PARAM,
        STEPS,
        LEARNING_RATE,
        OPTIMIZER,
        COMPARE,
        EDITOR,
        EMBED,
    ];
}
