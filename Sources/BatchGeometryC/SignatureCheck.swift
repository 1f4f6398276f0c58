// Proof, at compile time, that every exported function has exactly the type
// batchgeometry.h declares for its symbol: each line hands the header's declaration
// (imported from CBatchGeometry) and the Swift definition to `same`, whose two arguments
// must have one type. A parameter or result that differs (a pointer's mutability, an
// integer's width) fails the build. scripts/c-examples.sh checks that every function of
// the header is listed here. Never called.

import CBatchGeometry

/// Compiles only when `header` and `definition` have the same type.
private func same<Function>(_ header: Function, _ definition: Function) {}

/// The functions of API+Batch.swift.
func checkSignaturesBatch() {
    same(CBatchGeometry.bg_store_frames, bgStoreFrames)
    same(CBatchGeometry.bg_store_frames_columns, bgStoreFramesColumns)
    same(CBatchGeometry.bg_store_update_world, bgStoreUpdateWorld)
    same(CBatchGeometry.bg_store_invalidate_world, bgStoreInvalidateWorld)
    same(CBatchGeometry.bg_store_warm_up, bgStoreWarmUp)
    same(CBatchGeometry.bg_store_compute_world, bgStoreComputeWorld)
    same(CBatchGeometry.bg_store_world_transforms, bgStoreWorldTransforms)
    same(CBatchGeometry.bg_store_world_affine_transforms, bgStoreWorldAffineTransforms)
    same(CBatchGeometry.bg_layer_get_world_transform, bgLayerGetWorldTransform)
    same(CBatchGeometry.bg_store_world_rects, bgStoreWorldRects)
    same(CBatchGeometry.bg_layer_get_world_rect, bgLayerGetWorldRect)
    same(CBatchGeometry.bg_store_clip_rects, bgStoreClipRects)
    same(CBatchGeometry.bg_store_visibility, bgStoreVisibility)
}

/// The functions of API+Hierarchy.swift.
func checkSignaturesHierarchy() {
    same(CBatchGeometry.bg_layer_add, bgLayerAdd)
    same(CBatchGeometry.bg_layer_add_at, bgLayerAddAt)
    same(CBatchGeometry.bg_layer_insert, bgLayerInsert)
    same(CBatchGeometry.bg_layer_move, bgLayerMove)
    same(CBatchGeometry.bg_layer_detach, bgLayerDetach)
    same(CBatchGeometry.bg_layer_destroy, bgLayerDestroy)
    same(CBatchGeometry.bg_layer_is_detached, bgLayerIsDetached)
    same(CBatchGeometry.bg_layer_get_superlayer, bgLayerGetSuperlayer)
    same(CBatchGeometry.bg_layer_get_sublayers, bgLayerGetSublayers)
    same(CBatchGeometry.bg_store_roots, bgStoreRoots)
    same(CBatchGeometry.bg_store_preorder, bgStorePreorder)
}

/// The functions of API+Properties.swift.
func checkSignaturesProperties() {
    same(CBatchGeometry.bg_layer_get_bounds, bgLayerGetBounds)
    same(CBatchGeometry.bg_layer_set_bounds, bgLayerSetBounds)
    same(CBatchGeometry.bg_layer_get_position, bgLayerGetPosition)
    same(CBatchGeometry.bg_layer_set_position, bgLayerSetPosition)
    same(CBatchGeometry.bg_layer_offset_positions, bgLayerOffsetPositions)
    same(CBatchGeometry.bg_layer_get_center, bgLayerGetCenter)
    same(CBatchGeometry.bg_layer_set_center, bgLayerSetCenter)
    same(CBatchGeometry.bg_layer_get_anchor_point, bgLayerGetAnchorPoint)
    same(CBatchGeometry.bg_layer_set_anchor_point, bgLayerSetAnchorPoint)
    same(CBatchGeometry.bg_layer_get_z_position, bgLayerGetZPosition)
    same(CBatchGeometry.bg_layer_set_z_position, bgLayerSetZPosition)
    same(CBatchGeometry.bg_layer_get_anchor_point_z, bgLayerGetAnchorPointZ)
    same(CBatchGeometry.bg_layer_set_anchor_point_z, bgLayerSetAnchorPointZ)
    same(CBatchGeometry.bg_layer_get_frame, bgLayerGetFrame)
    same(CBatchGeometry.bg_layer_set_frame, bgLayerSetFrame)
}

/// The functions of API+Queries.swift.
func checkSignaturesQueries() {
    same(CBatchGeometry.bg_store_hit_test, bgStoreHitTest)
    same(CBatchGeometry.bg_store_convert_points, bgStoreConvertPoints)
    same(CBatchGeometry.bg_store_convert_rect, bgStoreConvertRect)
    same(CBatchGeometry.bg_layer_point_from_world, bgLayerPointFromWorld)
    same(CBatchGeometry.bg_layer_get_projected_quad, bgLayerGetProjectedQuad)
    same(CBatchGeometry.bg_store_draw_order, bgStoreDrawOrder)
    same(CBatchGeometry.bg_store_frame_query, bgStoreFrameQuery)
    same(CBatchGeometry.bg_store_frame_query_geometry, bgStoreFrameQueryGeometry)
    same(CBatchGeometry.bg_store_get_frame_query_cost, bgStoreGetFrameQueryCost)
}

/// The functions of API+Scene.swift.
func checkSignaturesScene() {
    same(CBatchGeometry.bg_scene_load, bgSceneLoad)
    same(CBatchGeometry.bg_scene_destroy, bgSceneDestroy)
    same(CBatchGeometry.bg_scene_layer_count, bgSceneLayerCount)
    same(CBatchGeometry.bg_scene_store, bgSceneStore)
    same(CBatchGeometry.bg_scene_evaluate, bgSceneEvaluate)
    same(CBatchGeometry.bg_evaluation_destroy, bgEvaluationDestroy)
    same(CBatchGeometry.bg_evaluation_json, bgEvaluationJSON)
    same(CBatchGeometry.bg_evaluation_store, bgEvaluationStore)
    same(CBatchGeometry.bg_evaluation_layer, bgEvaluationLayer)
}

/// The functions of API+ScrollViews.swift.
func checkSignaturesScrollViews() {
    same(CBatchGeometry.bg_layer_get_content_offset, bgLayerGetContentOffset)
    same(CBatchGeometry.bg_layer_set_content_offset, bgLayerSetContentOffset)
    same(CBatchGeometry.bg_layer_get_scroll_view, bgLayerGetScrollView)
    same(CBatchGeometry.bg_layer_set_scroll_view, bgLayerSetScrollView)
    same(CBatchGeometry.bg_layer_get_scroll_range, bgLayerGetScrollRange)
    same(CBatchGeometry.bg_layer_scroll, bgLayerScroll)
}

/// The functions of API+Store.swift.
func checkSignaturesStore() {
    same(CBatchGeometry.bg_version, bgVersion)
    same(CBatchGeometry.bg_abi_version, bgABIVersion)
    same(CBatchGeometry.bg_last_error_message, bgLastErrorMessage)
    same(CBatchGeometry.bg_status_name, bgStatusName)
    same(CBatchGeometry.bg_store_create, bgStoreCreate)
    same(CBatchGeometry.bg_store_copy, bgStoreCopy)
    same(CBatchGeometry.bg_store_destroy, bgStoreDestroy)
    same(CBatchGeometry.bg_store_reserve, bgStoreReserve)
    same(CBatchGeometry.bg_store_slot_count, bgStoreSlotCount)
    same(CBatchGeometry.bg_store_layer_count, bgStoreLayerCount)
    same(CBatchGeometry.bg_store_contains, bgStoreContains)
    same(CBatchGeometry.bg_store_handle_at, bgStoreHandleAt)
    same(CBatchGeometry.bg_store_set_options, bgStoreSetOptions)
    same(CBatchGeometry.bg_store_get_options, bgStoreGetOptions)
    same(CBatchGeometry.bg_c_instruction_set, bgCInstructionSet)
    same(CBatchGeometry.bg_store_get_display_scale, bgStoreGetDisplayScale)
    same(CBatchGeometry.bg_store_set_display_scale, bgStoreSetDisplayScale)
}

/// The functions of API+Transforms.swift.
func checkSignaturesTransforms() {
    same(CBatchGeometry.bg_layer_get_transform, bgLayerGetTransform)
    same(CBatchGeometry.bg_layer_set_transform, bgLayerSetTransform)
    same(CBatchGeometry.bg_layer_get_affine_transform, bgLayerGetAffineTransform)
    same(CBatchGeometry.bg_layer_set_affine_transform, bgLayerSetAffineTransform)
    same(CBatchGeometry.bg_layer_get_transform_kind, bgLayerGetTransformKind)
    same(CBatchGeometry.bg_layer_get_sublayer_transform, bgLayerGetSublayerTransform)
    same(CBatchGeometry.bg_layer_set_sublayer_transform, bgLayerSetSublayerTransform)
    same(CBatchGeometry.bg_layer_get_geometry_flipped, bgLayerGetGeometryFlipped)
    same(CBatchGeometry.bg_layer_set_geometry_flipped, bgLayerSetGeometryFlipped)
    same(CBatchGeometry.bg_layer_get_masks_to_bounds, bgLayerGetMasksToBounds)
    same(CBatchGeometry.bg_layer_set_masks_to_bounds, bgLayerSetMasksToBounds)
    same(CBatchGeometry.bg_layer_get_hidden, bgLayerGetHidden)
    same(CBatchGeometry.bg_layer_set_hidden, bgLayerSetHidden)
    same(CBatchGeometry.bg_layer_get_transform_layer, bgLayerGetTransformLayer)
    same(CBatchGeometry.bg_layer_set_transform_layer, bgLayerSetTransformLayer)
    same(CBatchGeometry.bg_layer_get_autoresizing_mask, bgLayerGetAutoresizingMask)
    same(CBatchGeometry.bg_layer_set_autoresizing_mask, bgLayerSetAutoresizingMask)
    same(CBatchGeometry.bg_layer_get_autoresizes_subviews, bgLayerGetAutoresizesSubviews)
    same(CBatchGeometry.bg_layer_set_autoresizes_subviews, bgLayerSetAutoresizesSubviews)
    same(CBatchGeometry.bg_layer_get_local_transform, bgLayerGetLocalTransform)
    same(CBatchGeometry.bg_layer_get_sublayer_adjustment, bgLayerGetSublayerAdjustment)
    same(CBatchGeometry.bg_layer_get_transform_to_superlayer, bgLayerGetTransformToSuperlayer)
}

/// The functions of API+Attributes.swift.
func checkSignaturesAttributes() {
    same(CBatchGeometry.bg_layer_get_property, bgLayerGetProperty)
    same(CBatchGeometry.bg_layer_set_property, bgLayerSetProperty)
    same(CBatchGeometry.bg_layer_get_world_opacity, bgLayerGetWorldOpacity)
    same(CBatchGeometry.bg_store_world_opacities, bgStoreWorldOpacities)
    same(CBatchGeometry.bg_store_frame_query_opacities, bgStoreFrameQueryOpacities)
}

/// The functions of API+Curves.swift and API+Deceleration.swift.
func checkSignaturesCurves() {
    same(CBatchGeometry.bg_timing_function_named, bgTimingFunctionNamed)
    same(CBatchGeometry.bg_timing_function_make, bgTimingFunctionMake)
    same(CBatchGeometry.bg_timing_function_get_name, bgTimingFunctionGetName)
    same(CBatchGeometry.bg_timing_function_value, bgTimingFunctionValue)
    same(CBatchGeometry.bg_timing_function_values, bgTimingFunctionValues)
    same(CBatchGeometry.bg_timing_function_values_each, bgTimingFunctionValuesEach)
    same(CBatchGeometry.bg_spring_for_view_animation, bgSpringForViewAnimation)
    same(CBatchGeometry.bg_spring_value, bgSpringValue)
    same(CBatchGeometry.bg_spring_progress, bgSpringProgress)
    same(CBatchGeometry.bg_spring_progress_each, bgSpringProgressEach)
    same(CBatchGeometry.bg_spring_get_durations, bgSpringGetDurations)
    same(CBatchGeometry.bg_spring_get_durations_each, bgSpringGetDurationsEach)
    same(CBatchGeometry.bg_deceleration_make, bgDecelerationMake)
    same(CBatchGeometry.bg_layer_decelerate, bgLayerDecelerate)
    same(CBatchGeometry.bg_deceleration_offset, bgDecelerationOffset)
    same(CBatchGeometry.bg_deceleration_offsets, bgDecelerationOffsets)
    same(CBatchGeometry.bg_rubber_band_offset, bgRubberBandOffset)
}

/// The functions of API+Animations.swift.
func checkSignaturesAnimations() {
    same(CBatchGeometry.bg_animation_init, bgAnimationInit)
    same(CBatchGeometry.bg_animations_create, bgAnimationsCreate)
    same(CBatchGeometry.bg_animations_destroy, bgAnimationsDestroy)
    same(CBatchGeometry.bg_animations_add, bgAnimationsAdd)
    same(CBatchGeometry.bg_animations_add_deceleration, bgAnimationsAddDeceleration)
    same(CBatchGeometry.bg_animations_remove, bgAnimationsRemove)
    same(CBatchGeometry.bg_animations_set_layer_timing, bgAnimationsSetLayerTiming)
    same(CBatchGeometry.bg_animations_sample, bgAnimationsSample)
    same(CBatchGeometry.bg_animations_presentation_count, bgAnimationsPresentationCount)
    same(CBatchGeometry.bg_animations_get_presentation, bgAnimationsGetPresentation)
    same(CBatchGeometry.bg_animations_get_presentations, bgAnimationsGetPresentations)
    same(CBatchGeometry.bg_animations_get_finished, bgAnimationsGetFinished)
    same(CBatchGeometry.bg_store_apply_presentation, bgStoreApplyPresentation)
    same(CBatchGeometry.bg_store_restore_model_values, bgStoreRestoreModelValues)
    same(CBatchGeometry.bg_store_update_presentation, bgStoreUpdatePresentation)
}
