// The op's trait stamped under every line of the declaration catalog. In a file of its own:
// burn's generated routing reports its panics at the line below, which then moves only when
// this file changes.
declaration_catalog!(stamp_declarations! {
    op: scale,
    declare: declare_scale_ops,
    autodiff_impl: impl_scale_autodiff,
    builds: scale_builds,
    trait: ScaleOps,
    fn scale(x: FloatTensor<Dispatch>, factor: f32) -> FloatTensor<Dispatch>
});
