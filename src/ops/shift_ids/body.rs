/// `ids + offset`, on whichever backend holds the ids.
fn shift_ids_body<B: Backend>(ids: IntTensor<B>, offset: i32) -> IntTensor<B> {
    B::int_add_scalar(ids, offset.into())
}
