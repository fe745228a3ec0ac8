package tenants

// SetAfterReindexRead makes Reindex call f after each page of records it reads and before it
// writes their index (nil: nothing), so a test can land a write in between.
func SetAfterReindexRead(f func(partition string)) { afterRead = f }
