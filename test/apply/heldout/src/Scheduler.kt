package com.example.jobs

import java.time.Duration
import java.util.concurrent.ConcurrentHashMap

enum class JobState {
    QUEUED,
    RUNNING,
    DONE,
    FAILED
}

data class Job(val id: String, val name: String, var state: JobState = JobState.QUEUED)

class Scheduler(private val maxJobs: Int) {
    private val jobs = ConcurrentHashMap<String, Job>()
    private val retryDelays = listOf(1, 5, 30)

    fun submit(job: Job): Boolean {
        if (jobs.size >= maxJobs) {
            return false
        }
        jobs[job.id] = job
        return true
    }

    fun start(id: String): Job? {
        val job = jobs[id] ?: return null
        job.state = JobState.RUNNING
        return job
    }

    fun finish(id: String, ok: Boolean): Job? {
        val job = jobs[id] ?: return null
        job.state = if (ok) JobState.DONE else JobState.FAILED
        return job
    }

    fun pending(): List<Job> {
        return jobs.values.filter { it.state == JobState.QUEUED }
    }

    fun timeout(): Duration {
        return Duration.ofSeconds(30)
    }
}
