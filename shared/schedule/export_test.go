package schedule

import "time"

// WithClock returns the job reading due items as of now() and moving at most perRun per run
// (tests: a later run without waiting, a small page to fill).
func WithClock(j *Job, now func() time.Time, perRun int) *Job {
	k := *j
	k.now, k.perRun = now, perRun
	return &k
}

// WithPurgeBatch returns the job deleting n units per step of a purge (tests: several runs of a
// small form).
func WithPurgeBatch(j *Job, n int) *Job {
	k := *j
	k.purgeBatch = n
	return &k
}
