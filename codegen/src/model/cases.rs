//! The variants of switch fields: one per distinct case type, and the variant each arm of
//! the switch reads into. The generated code makes an enum of them, the interpreter names
//! its cases by them, and expressions take a case by its index here.

use crate::expr::Expr;
use crate::model::{FieldType, Scalar, Schema, Switch};

/// One variant of a switch.
pub struct Variant<'m> {
    /// The name in documents and in error and check paths (`body.anp3.animations[0]`).
    pub name: String,
    /// What it holds.
    pub ty: &'m FieldType,
}

/// One arm of a switch: the case key (`None` for the default) and the variant its values are
/// held in.
pub struct Arm<'m> {
    /// The key the selector is matched against.
    pub key: Option<&'m Expr>,
    /// An index into [`SwitchVariants::variants`].
    pub variant: usize,
}

/// The variants of a switch enum and the arms that choose them.
pub struct SwitchVariants<'m> {
    /// The distinct variants: one per case type, in order, then the default's.
    pub variants: Vec<Variant<'m>>,
    /// The cases in order, then the default.
    pub arms: Vec<Arm<'m>>,
}

/// The variants of `switch` and its arms.
pub fn switch_variants<'m>(schema: &Schema, switch: &'m Switch) -> SwitchVariants<'m> {
    let mut variants: Vec<Variant> = Vec::new();
    let arms = switch
        .cases
        .iter()
        .map(|c| (Some(&c.key), &c.ty))
        .chain(switch.default.as_deref().map(|ty| (None, ty)));
    let mut chosen = Vec::new();
    for (key, ty) in arms {
        let variant = match variants.iter().position(|v| v.ty == ty) {
            Some(existing) => existing,
            None => {
                let mut name = variant_name(schema, ty, variants.len());
                // The same type with other arguments needs a name of its own.
                if variants.iter().any(|v| v.name == name) {
                    name = format!("{name}{}", variants.len());
                }
                variants.push(Variant { name, ty });
                variants.len() - 1
            }
        };
        chosen.push(Arm { key, variant });
    }
    SwitchVariants {
        variants,
        arms: chosen,
    }
}

fn variant_name(schema: &Schema, ty: &FieldType, index: usize) -> String {
    match ty {
        FieldType::User { ty, .. } => schema.types[*ty].id.clone(),
        FieldType::Number(Scalar::Int(i)) => {
            format!("{}{}", if i.signed { "s" } else { "u" }, i.bytes)
        }
        FieldType::Str { .. } => "text".to_owned(),
        FieldType::Bytes { .. } => "raw".to_owned(),
        FieldType::Nothing => "nothing".to_owned(),
        FieldType::Number(_)
        | FieldType::Bits { .. }
        | FieldType::BitPadding
        | FieldType::Vlq
        | FieldType::Enum { .. }
        | FieldType::Quat(_)
        | FieldType::Vec3(_)
        | FieldType::Array { .. }
        | FieldType::Remembered { .. }
        | FieldType::Contents(_)
        | FieldType::Switch(_) => format!("case{index}"),
    }
}
