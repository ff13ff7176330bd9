// Small stand-ins for the model APIs of the real agent CLIs, on loopback.
export { gate, isContextBlock, type FakeServer, type Hold, type LoggedRequest } from "./common";
export { startFakeAnthropic, userPrompts, isSideQuestion, messagesOf, defaultResponder, type FakeAnthropic, type AnthropicReply, type FakeAnthropicOptions } from "./anthropic";
export { startFakeOpenAI, openaiUserPrompts, defaultOpenAIReply, type FakeOpenAI, type OpenAIReply, type FakeOpenAIOptions } from "./openai";
export { startFakeGemini, geminiUserPrompts, defaultGeminiReply, type FakeGemini, type GeminiReply, type FakeGeminiOptions } from "./gemini";
