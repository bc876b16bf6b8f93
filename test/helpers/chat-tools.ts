// A function tool the chat and batch tests call: its arguments are constrained to a few values so
// a generated model's forced call can be checked field by field.
export const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', enum: ['Paris', 'London', 'Tokyo'] }, unit: { type: 'string', enum: ['c', 'f'] } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};
