'use client'
import { useEffect, useState } from 'react'

/** The current time, re-rendered every `intervalMs`, so ages keep counting while data is old. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(id)
  }, [intervalMs])
  return now
}
