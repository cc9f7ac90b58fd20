/** The providers offered in Settings (see shared/endpointPresets.ts). */
export { ENDPOINT_PRESETS as PRESETS, presetFor } from '../../shared/endpointPresets';
