// The default body is the forward on every backend.
impl ShiftIdsOps for Cube {}
impl ShiftIdsOps for Flex {}
