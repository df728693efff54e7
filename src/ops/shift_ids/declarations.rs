// The op's trait stamped under every line of the declaration catalog. In a file of its own:
// burn's generated routing reports its panics at the line below, which then moves only when
// this file changes.
declaration_catalog!(stamp_declarations! {
    op: shift_ids,
    declare: declare_shift_ids_ops,
    autodiff_impl: impl_shift_ids_autodiff,
    builds: default_body_builds,
    trait: ShiftIdsOps,
    fn shift_ids(ids: IntTensor<Dispatch>, offset: i32) -> IntTensor<Dispatch>
});
