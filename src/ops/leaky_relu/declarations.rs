// The op's trait stamped under every line of the declaration catalog. In a file of its own:
// burn's generated routing reports its panics at the line below, which then moves only when
// this file changes.
declaration_catalog!(stamp_declarations! {
    op: leaky_relu,
    declare: declare_leaky_relu_ops,
    autodiff_impl: impl_leaky_relu_autodiff,
    builds: default_body_builds,
    trait: LeakyReluOps,
    fn leaky_relu(x: FloatTensor<Dispatch>, slope: f32) -> FloatTensor<Dispatch>
});
