/**
 * The audio of voice messages (docs/voicemail.md, "Audio"): WAV files written and read with the `wavefile`
 * library (docs/dependencies.md). The platform makes a message's audio when no recording was uploaded for
 * it: PCM 16-bit mono at 8 kHz, a sequence of tones as long as the message.
 */
import wavefile from 'wavefile'

/** The largest audio a message may hold, in bytes: about 4 minutes of 8 kHz 16-bit mono. */
export const MAX_VOICE_MESSAGE_BYTES = 4 * 1024 * 1024

const SAMPLE_RATE = 8000
/** Each tone lasts 400 ms, then 100 ms of silence: a speech-like rhythm. */
const TONE_MS = 400
const GAP_MS = 100
const TONES_HZ = [440, 554, 659, 523, 392]

/** A playable WAV of `seconds` seconds of tones (PCM 16-bit mono, 8 kHz). */
export function toneMessage(seconds: number): Uint8Array {
  const samples = new Int16Array(Math.max(0, Math.round(seconds * SAMPLE_RATE)))
  const period = ((TONE_MS + GAP_MS) * SAMPLE_RATE) / 1000
  const toneLength = (TONE_MS * SAMPLE_RATE) / 1000
  for (let index = 0; index < samples.length; index += 1) {
    const position = index % period
    if (position >= toneLength) continue
    const frequency = TONES_HZ[Math.floor(index / period) % TONES_HZ.length] ?? 440
    samples[index] = Math.round(6000 * Math.sin((2 * Math.PI * frequency * index) / SAMPLE_RATE))
  }
  const wave = new wavefile.WaveFile()
  wave.fromScratch(1, SAMPLE_RATE, '16', samples)
  return wave.toBuffer()
}

/** What a WAV file says of itself. */
export interface WavFacts {
  sampleRate: number
  channels: number
  bitsPerSample: number
  /** The length of its audio, seconds. */
  seconds: number
}

/** Reads a WAV file; throws an Error saying why when the bytes are not one the library can read. */
export function readWav(bytes: Uint8Array): WavFacts {
  const wave = new wavefile.WaveFile(bytes)
  const fmt = wave.fmt as {
    sampleRate: number
    numChannels: number
    bitsPerSample: number
    byteRate: number
  }
  const data = wave.data as { chunkSize: number }
  if (!(fmt.byteRate > 0)) throw new Error('the WAV file has no audio format')
  return {
    sampleRate: fmt.sampleRate,
    channels: fmt.numChannels,
    bitsPerSample: fmt.bitsPerSample,
    seconds: data.chunkSize / fmt.byteRate,
  }
}
