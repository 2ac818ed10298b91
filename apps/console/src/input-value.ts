/** The value of the input or select an event came from (the console compiles without the DOM lib: read structurally). */
export const inputValue = (event: { target: unknown }) => (event.target as { value: string }).value;
