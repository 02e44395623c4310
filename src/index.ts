/**
 * moonglass: the public API for plugin authors. Everything a plugin needs comes from here
 * (`import { ... } from 'moonglass'`); nothing under src/ is imported by path.
 *
 * @module moonglass
 */
export { inject, injectable, optional } from 'inversify';

// Components and signatures
export { service, action, eventHandler, chatter } from './kernel/components/decorators.js';
export { ComponentKind, COMPONENT_KINDS } from './kernel/signature/component-kind.js';
export { parseSignature, isSignature } from './kernel/signature/parse-signature.js';
export { formatSignature } from './kernel/signature/format-signature.js';
export { ComponentRegistry } from './kernel/registry/component-registry.js';
export { PluginScope } from './kernel/scope/plugin-scope.js';
export { TOKENS } from './kernel/tokens.js';
export { overlay } from './kernel/registry/overlay.js';

// Plugins
export { ToolPlugin } from './plugin-system/tool-plugin.js';
export { PluginConfig } from './plugin-system/config/plugin-config.js';
export { secret, secretFields } from './plugin-system/config/secret.js';
export { savePluginConfig } from './plugin-system/config/save-plugin-config.js';

// Chat: chatters, actions, results
export { BaseChatter } from './chatter/base-chatter.js';
export { BaseAction } from './chatter/base-action.js';
export { Wait, Success, Failure, Stop } from './chatter/chatter-result.js';
export { WaitResumeEvent } from './chatter/wait-resume-event.js';
export { PromptManager } from './llm/prompt-manager.js';

// Tools
export { tool, DEFAULT_TOOL_TIMEOUT_MS } from './tools/tool-decorator.js';
export { SideEffect } from './tools/side-effect.js';
export { ToolExecutionResult } from './tools/tool-execution-result.js';
export { ToolRegistry } from './tools/tool-registry.js';

// Events
export { EventBus, DEFAULT_EVENT_HANDLER_TIMEOUT_SECONDS } from './kernel/event-bus/event-bus.js';
export { EventDecision } from './kernel/event-bus/event-decision.js';
export { EventType } from './kernel/event-bus/event-type.js';
export { BaseEventHandler } from './kernel/event-bus/base-event-handler.js';
export { getService, publishEvent, setEventHandlerTimeout } from './kernel/runtime/module-api.js';

// Time, randomness, logging
export { systemClock } from './kernel/time/clock.js';
export { machineTimeZone, resolveTimeZone, zonedTime } from './kernel/time/zoned-time.js';
export { systemRandom } from './kernel/time/random.js';
export { createLogger, pluginLogger } from './kernel/logger/create-logger.js';

// Configuration
export { AppConfigSchema } from './kernel/config/app-config.js';

// The host
export { createHost, Host, defaultPluginRoots } from './app/create-host.js';
export { HOST_VERSION } from './app/host-version.js';

// Errors
export { MoonglassError } from './kernel/errors/moonglass-error.js';
export { ERROR_CODES } from './kernel/errors/error-codes.js';
export { SignatureError } from './kernel/errors/signature-error.js';
export { SignatureCollisionError } from './kernel/errors/signature-collision-error.js';
export { ComponentDeclarationError } from './kernel/errors/component-declaration-error.js';
export { ComponentResolutionError } from './kernel/errors/component-resolution-error.js';
export { BindingOverrideError } from './kernel/errors/binding-override-error.js';
export { ScopeInactiveError } from './kernel/errors/scope-inactive-error.js';
export { EventPublishError } from './kernel/errors/event-publish-error.js';
export { HostNotRunningError } from './kernel/errors/host-not-running-error.js';
export { HostStateError } from './kernel/errors/host-state-error.js';
export { ConfigFileError } from './kernel/errors/config-file-error.js';
export { ToolDeclarationError } from './kernel/errors/tool-declaration-error.js';
export { InvalidArgumentError } from './kernel/errors/invalid-argument-error.js';
export { ToolResultError } from './tools/errors/tool-result-error.js';
export { ToolRegistrationError } from './tools/errors/tool-registration-error.js';
export { ManifestError } from './plugin-system/errors/manifest-error.js';
export { PluginEntryError } from './plugin-system/errors/plugin-entry-error.js';
export { PluginNotReadyError } from './plugin-system/errors/plugin-not-ready-error.js';
export { PluginConfigError } from './plugin-system/config/plugin-config-error.js';
export { StorageError } from './storage/errors/storage-error.js';
export { DataFolderLockedError } from './kernel/errors/data-folder-locked-error.js';
export { AdapterError } from './adapters/errors/adapter-error.js';
export { McpUnavailableError } from './mcp/mcp-unavailable-error.js';
export type { McpContentItem, McpToolResult, PluginMcpAccess } from './mcp/mcp-types.js';
export type { PluginMediaAccess } from './media/media-types.js';
export { ModelRequestError } from './llm/errors/model-request-error.js';
export { LlmRequestFailedError } from './llm/errors/llm-request-failed-error.js';
export { LlmTaskError } from './llm/errors/llm-task-error.js';
export { PromptError } from './llm/errors/prompt-error.js';

export type {
  ServiceOptions,
  ActionOptions,
  EventHandlerOptions,
  ChatterOptions,
} from './kernel/components/decorators.js';
export type {
  ComponentMetadata,
  ServiceMetadata,
  ActionMetadata,
  EventHandlerMetadata,
  ChatterMetadata,
  AdapterMetadata,
  ToolMetadata,
  ChatType,
  ComponentClass,
} from './kernel/components/component-metadata.js';
export type { JsonObjectSchema, ParametersSchema } from './kernel/components/parameters-schema.js';
export type { Signature, SignatureParts } from './kernel/signature/parse-signature.js';
export type { ComponentRecord, ComponentFilter } from './kernel/registry/component-record.js';
export type { OverrideTarget } from './kernel/registry/component-registry.js';
export type { ServiceTypes } from './kernel/registry/service-types.js';
export type { Disposer } from './kernel/scope/disposer.js';
export type { CoreToken } from './kernel/tokens.js';
export type { ToolSpec, ToolDeclaration } from './tools/tool-decorator.js';
export type { ToolInvocation } from './tools/tool-invocation.js';
export type { ActionContext } from './chatter/base-action.js';
export type { ChatterGenerator, ChatterRun } from './chatter/chatter-run.js';
export type { ChatterResult, StepData, StopOptions } from './chatter/chatter-result.js';
export type { ResumeSource } from './chatter/wait-resume-event.js';
export type { ChatRuntime } from './chatter/chat-runtime.js';
export type { ActiveChatRule, ChatRulePersona } from './chat/rules/active-chat-rule.js';
export type { ChatRuleConfig } from './chat/rules/chat-rules-config.js';
export type { ChatSilence } from './chat/silence/chat-silence.js';
export { HourRangeSchema, withinHours } from './chat/rules/hour-range.js';
export type { OnChatterStepPayload, AfterChatterStepPayload } from './chatter/chatter-step-payloads.js';
export type { BeforeToolCallPayload, AfterToolCallPayload } from './chatter/tool-call-payloads.js';
export type { UsableSet, Usable } from './chatter/usables.js';
export type { ToolCallOutcome } from './chatter/run-tool-calls.js';
export type { Message, MessageExtra, ChatType as ChatKind } from './chat/message.js';
export type { ChatStream } from './chat/chat-stream.js';
export type { StreamApi, OutgoingMessage, SendOutcome, SendOptions, ListStreamsOptions, StreamSummary } from './chat/stream-api.js';
export type { InboundEnvelope } from './chat/inbound-envelope.js';
export type { OutboundSink, OutboundDelivery, OutboundMedia, DeliveryCheck, DeliveryCheckRequest } from './chat/outbound-sink.js';
export type { DeliveryFailureKind } from './chat/delivery-failure.js';
export type { OnMessageReceivedPayload, OnMessageSentPayload } from './chat/message-events.js';
export type { OnNoticePayload, OnRequestPayload, PlatformEventOrigin } from './chat/platform-events.js';
export type {
  FriendAddNotice,
  FriendRecallNotice,
  GroupAdminNotice,
  GroupBanNotice,
  GroupDecreaseNotice,
  GroupIncreaseNotice,
  GroupRecallNotice,
  GroupUploadNotice,
  HonorNotice,
  LuckyKingNotice,
  PlatformNotice,
  PokeNotice,
} from './chat/platform-notice.js';
export type { FriendRequest, GroupRequest, PlatformRequest } from './chat/platform-request.js';
export type {
  GroupInfo,
  GroupMemberInfo,
  MessageIdResult,
  PlatformActionName,
  PlatformActions,
  PlatformCallOptions,
  PlatformId,
  PlatformMessage,
  PluginPlatformAccess,
  StrangerInfo,
} from './chat/platform-actions.js';
export type { OnPromptBuildPayload } from './llm/prompt-manager.js';
export type { BotConfig } from './chat/bot-config.js';
export type { BotPersona, AccountGroups } from './chat/bot-accounts.js';
export type { LLMPayload, ContentPart } from './llm/payload.js';
export type { ToolCall } from './llm/tool-call.js';
export type { ToolDeclaration as ModelToolDeclaration } from './llm/tool-declaration.js';
export type { ModelClient, ModelCall, ModelReply, ModelUsage } from './llm/model-client.js';
export type { LLMRequest } from './llm/llm-request.js';
export type { LLMResponse } from './llm/llm-response.js';
export type { ModelsConfig } from './llm/models-config.js';
export type { BeforeLlmRequestPayload, AfterLlmRequestPayload, LlmRequestFailedPayload } from './llm/llm-event-payloads.js';
export type { ToolContext } from './tools/tool-context.js';
export type { ToolDefinition } from './tools/tool-definition.js';
export type { ToolExecutionResultOptions } from './tools/tool-execution-result.js';
export type { ToolFunctionDeclaration } from './tools/tool-function-declaration.js';
export type { PluginManifest } from './plugin-system/manifest/plugin-manifest.js';
export type { PluginContext, PluginPaths, PluginHostFacts } from './plugin-system/plugin-context.js';
export type { PluginEffects } from './plugin-system/plugin-effects.js';
export type { PluginScheduleFunction, ScheduleSpec, ScheduleOptions, ScheduledRun, ScheduledTask, MissedRunPolicy } from './plugin-system/schedule/schedule-types.js';
export type { PluginStatus, PluginState } from './plugin-system/discovery/plugin-status.js';
export type { PluginRoot } from './plugin-system/discovery/plugin-root.js';
export type { PluginConfigModel } from './plugin-system/config/plugin-config.js';
export type { SaveResult, PluginConfigFieldError } from './plugin-system/config/save-plugin-config.js';
export type { ManifestIssue } from './plugin-system/errors/manifest-error.js';
export type {
  EventHandlerFunction,
  SubscribeOptions,
  PublishResult,
  SubscriberInfo,
} from './kernel/event-bus/event-bus.js';
export type { HandlerResult } from './kernel/event-bus/handler-result.js';
export type {
  EventPayloads,
  EventName,
  EventParams,
  OnStartPayload,
  OnStopPayload,
  OnAllPluginLoadedPayload,
  OnPluginUnloadedPayload,
  ComponentLifecyclePayload,
} from './kernel/event-bus/event-payloads.js';
export type { Clock, TimerHandle } from './kernel/time/clock.js';
export type { ZonedTime } from './kernel/time/zoned-time.js';
export type { Random } from './kernel/time/random.js';
export type { Logger, LogLevel } from './kernel/logger/logger.js';
export type { AppConfig } from './kernel/config/app-config.js';
export type { HostOptions, HostInfo, HostState } from './app/create-host.js';
export type { ErrorCode } from './kernel/errors/error-codes.js';
export type { ConfigIssue } from './kernel/errors/config-file-error.js';
// What the core tokens are bound to, for plugins that override or wrap them.
export type { Database } from './storage/database.js';
export type { LlmService } from './llm/llm-service.js';
export type { MediaService } from './media/media-service.js';
export type { McpHostService } from './mcp/mcp-host-service.js';
export type { ComponentLifetime } from './kernel/components/component-lifetime.js';
export type { LifetimeOption } from './kernel/components/decorators.js';
export { serviceToken } from './kernel/registry/service-token.js';
export { injectService } from './kernel/registry/inject-service.js';
export type { ServiceToken, ServiceOf } from './kernel/registry/service-token.js';
export type { InjectedServiceMismatch } from './kernel/registry/inject-service.js';

// Commands and permissions (issue 18)
export { command } from './kernel/components/decorators.js';
export { defineCommand } from './kernel/components/command-metadata.js';
export { BaseCommand } from './commands/base-command.js';
export { levelOf, levelAllows } from './commands/permission-level.js';
export { parseCommandInput } from './commands/parse-command-input.js';
export { commandUsage } from './commands/command-usage.js';
export type { CommandDeclaration, CommandInput, CommandMetadata, CommandPermission } from './kernel/components/command-metadata.js';
export type { CommandAccount, CommandContext, CommandOperator, CommandResult } from './commands/command-context.js';
export type { PermissionLevel, SenderFacts } from './commands/permission-level.js';
export type { BeforeCommandPayload, AfterCommandPayload } from './commands/command-event-payloads.js';

// Types the public signatures above name (so the API reference can show them, and a plugin can write them)
export type { SystemPayload, UserPayload, AssistantPayload, ToolResultPayload } from './llm/payload.js';
export type { ModelFailure } from './llm/errors/llm-request-failed-error.js';
export type { CommandArgsShape, CommandOptionsShape } from './kernel/components/command-metadata.js';
export type { McpUnavailableKind } from './mcp/mcp-unavailable-error.js';
export type { McpServerStatus } from './mcp/mcp-server-status.js';
export type { MessageRepository } from './storage/message-repository.js';
export type { StreamRepository } from './storage/stream-repository.js';
export type { ToolCallLog } from './storage/tool-call-log.js';
export type { IngressOutcome } from './chat/ingress.js';
export type { ParseCommandResult } from './commands/parse-command-input.js';
export type { MediaRequest } from './media/media-context.js';
